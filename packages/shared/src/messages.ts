import { ID_FILE_MAX_BYTES } from './constants';

/** A byte limit in the product's 'Mo' (MiB), as the messages and hints quote it. */
export const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** 'La taille du fichier ne doit pas dépasser N Mo.', N from the limit that applies. */
export const fileTooLargeMessage = (maxBytes: number) =>
  `La taille du fichier ne doit pas dépasser ${megabytes(maxBytes)} Mo.`;

/**
 * The server's answers, in the product's voice (spec §8). The screens show
 * the server's `message`, so it is written once here.
 */
export const API_MESSAGES = {
  badRequest: 'La requête est mal formée.',
  unauthenticated: 'Vous devez être authentifié.',
  forbidden: "Vous n'avez pas la permission.",
  notFound: "La ressource demandée n'existe pas.",
  internal: 'Une erreur interne est survenue.',
  tooManyRequests: 'Trop de tentatives. Réessayez dans une minute.',
  /** The identity document's limit; other uploads say theirs with `fileTooLargeMessage`. */
  fileTooLarge: fileTooLargeMessage(ID_FILE_MAX_BYTES),
  fileInvalid: 'Veuillez sélectionner un fichier valide',
  fileTypeRefused: "Ce type de fichier n'est pas accepté.",
  loginSuccess: 'Connexion réussie.',
  badCredentials: 'Identifiants incorrects.',
  accountDisabled: 'Accès refusé.',
  loggedOut: 'Déconnecté',
} as const;
