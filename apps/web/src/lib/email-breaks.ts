/**
 * Where a long e-mail address may go on a new line (issue 27): after its '@' and before each
 * dot, so a list column is no wider than the address's longest part, and no line breaks inside a
 * name. The parts joined are the address, unchanged.
 */
export function emailParts(address: string): string[] {
  return address.split(/(?=\.)|(?<=@)/);
}
