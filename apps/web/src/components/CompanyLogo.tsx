import { Image } from '@mantine/core';

/** A company's logo at height `h`, named by the company; nothing when it has none. */
export function CompanyLogo({
  company,
  h,
}: {
  company: { name: string; logo_url: string | null } | undefined;
  h: number;
}) {
  if (!company?.logo_url) return null;
  return <Image src={company.logo_url} alt={company.name} h={h} w="auto" fit="contain" />;
}
