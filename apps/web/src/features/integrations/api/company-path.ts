/** The company's part of issue 34's addresses: `/company/{id}`, `{id}` its slug or id. */
export const companyPath = (company: string) => `/company/${encodeURIComponent(company)}`;

/** `/company/{id}/{section}/{recordId}` */
export const recordPath = (company: string, section: string, id: string) =>
  `${companyPath(company)}/${section}/${encodeURIComponent(id)}`;

/** The server's words about what it did, when it said some. */
export interface Said {
  message?: string;
}
