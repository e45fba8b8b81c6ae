import { z } from 'zod';
import { MAX_PAGE_SIZE, PAGE_SIZE, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from '../constants';

/** A simple e-mail shape, as the spec's forms check it. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PHONE_PATTERN = new RegExp(`^\\d{${PHONE_MIN_DIGITS},${PHONE_MAX_DIGITS}}$`);

export const uuidSchema = z.uuid();

/** `?page=&per_page=&q=` of every list (ARCHITECTURE §4). */
export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
  q: z.string().trim().max(200).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export interface ListMeta {
  page: number;
  per_page: number;
  total: number;
}
export interface Paginated<T> {
  data: T[];
  meta: ListMeta;
}

export const paginatedSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    meta: z.object({ page: z.number(), per_page: z.number(), total: z.number() }),
  });

/** Error body of every failed call (ARCHITECTURE §4). */
export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
