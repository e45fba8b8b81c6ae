/** A byte limit in the product's 'Mo' (MiB), as the messages and hints quote it. */
export const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
