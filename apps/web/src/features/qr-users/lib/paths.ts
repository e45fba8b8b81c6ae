/** The details view takes its id from the query string, so it survives a reload or a shared link. */
export function detailsPath(id: string): string {
  return `/qr-details?id=${encodeURIComponent(id)}`;
}

export function expiryPath(domain: string, id: string): string {
  return `/${domain}/disable-user-qrcode/${encodeURIComponent(id)}`;
}
