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
  fileTooLarge: 'La taille du fichier ne doit pas dépasser 2 Mo.',
  fileInvalid: 'Veuillez selectionnez un fichier valide',
  fileTypeRefused: "Ce type de fichier n'est pas accepté.",
  loginSuccess: 'Connexion réussie.',
  badCredentials: 'Identifiants incorrects.',
  accountDisabled: 'Accès refusé.',
  loggedOut: 'Déconnecté',
} as const;
