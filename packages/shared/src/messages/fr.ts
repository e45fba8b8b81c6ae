/**
 * The server's words in French: every message, toast, CSV header and fixed cell
 * the server writes (spec §8's wording, with the spelling fixes CONTRIBUTING lists).
 * The English catalogue (en.ts) has the same keys; code picks a message by key
 * (`(m) => m.visitor.emailInvalid`), never by its French text.
 */
import {
  ARRIVAL_EARLY_MAX_MINUTES,
  ID_FILE_MAX_BYTES,
  PASSWORD_MIN_LENGTH,
  UNDO_WINDOW_MINUTES,
} from '../constants';
import { megabytes } from './units';

const fileTooLarge = (maxBytes: number) =>
  `La taille du fichier ne doit pas dépasser ${megabytes(maxBytes)} Mo.`;
const required = (label: string) => `Le champ "${label}" est requis.`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const visitorFields = {
  firstname: 'Prénoms',
  lastname: 'Nom',
  id_number: "Numéro de pièce d'identité",
  organisation_name: 'Employeur',
  email: 'Email',
  contact: 'Contact',
} as const;

const companyFields = {
  logo: 'Logo',
  name: 'Nom',
  id_number: "Numéro d'identification",
  address: 'Adresse',
  city: 'Ville',
  state: 'Région / État',
  country: 'Pays',
  zipcode: 'Code postal',
  company_field: "Secteur d'activité",
  point_contact: 'Point de contact',
  title: 'Titre',
  email: 'Email',
  phone_number: 'Téléphone',
  description: 'Description',
  number_of_employee: "Nombre d'employés",
} as const;

const eventFields = {
  company_id: 'Entreprise',
  name: 'Nom',
  location: 'Lieu',
  address_name: 'Adresse',
  city: 'Ville',
  country: 'Pays',
  state: 'Région / État',
  zipcode: 'Code postal',
  date_event: 'Date',
  time_event: 'Heure',
} as const;

const userFields = {
  name: 'Nom',
  firstname: 'Prénoms',
  email: 'Email',
  password: 'Mot de passe',
  title: 'Titre',
  contact: 'Téléphone',
  role: 'Rôle',
  company_id: 'Entreprise',
} as const;

const accountFields = {
  current_password: 'Mot de passe actuel',
  new_password: 'Nouveau mot de passe',
  confirm_password: 'Confirmer le mot de passe',
} as const;

const kioskFields = {
  name: 'Nom',
  site_id: 'Site',
  languages: 'Langues',
  idle_seconds: "Retour à l'accueil après",
  host_wait_seconds: "Attente de la réponse de l'hôte",
  firstname: 'Prénom',
  lastname: 'Nom',
  organisation_name: 'Société',
} as const;

const invitationFields = {
  site_id: 'Site',
  date: 'Date',
  time: 'Heure',
  end_time: 'Heure de fin',
  reason: 'Motif',
  language: 'Langue des e-mails',
  rrule: 'Répétition',
  firstname: 'Prénom',
  lastname: 'Nom',
  email: 'E-mail',
  phone: 'Téléphone',
  organisation: 'Organisation',
} as const;

const siteFields = {
  name: 'Nom du site',
  address: 'Adresse',
  city: 'Ville',
  zipcode: 'Code postal',
  country: 'Pays',
  timezone: 'Fuseau horaire',
  front_desk_email: 'Email de l’accueil',
  opens_at: 'Ouverture',
  day_end: 'Fin de journée',
  arrival_early_minutes: 'Arrivées anticipées (minutes)',
  short_code: 'Code court',
  site_id: 'Site',
} as const;

const qrUserFields = {
  firstname: 'Prénom',
  lastname: 'Nom',
  contact: 'Contact',
  email: 'Email',
  title: 'Titre',
  company_id: 'Entreprise',
  user_document: 'Document',
  dateExp: "Date d'expiration",
} as const;

const visitorTypeFields = {
  name_fr: 'Nom (français)',
  name_en: 'Nom (anglais)',
  title_fr: 'Titre (français)',
  title_en: 'Titre (anglais)',
  organisation: 'Organisation',
  phone: 'Téléphone',
  id_number: "Numéro de pièce d'identité",
  id_document: "Pièce d'identité",
  photo: 'Photo',
} as const;

export const fr = {
  /** The server's answers (spec §8). */
  api: {
    badRequest: 'La requête est mal formée.',
    unauthenticated: 'Vous devez être authentifié.',
    forbidden: "Vous n'avez pas la permission.",
    notFound: "La ressource demandée n'existe pas.",
    internal: 'Une erreur interne est survenue.',
    tooManyRequests: 'Trop de tentatives. Réessayez dans une minute.',
    /** An upload over `maxBytes`, the limit of the field it came in. */
    fileTooLargeMax: fileTooLarge,
    /** The identity document's limit (spec §9). */
    fileTooLarge: fileTooLarge(ID_FILE_MAX_BYTES),
    fileInvalid: 'Veuillez sélectionner un fichier valide',
    fileTypeRefused: "Ce type de fichier n'est pas accepté.",
    loginSuccess: 'Connexion réussie.',
    badCredentials: 'Identifiants incorrects.',
    accountDisabled: 'Accès refusé.',
    loggedOut: 'Déconnecté',
  },
  /** zod's own checks, said in the product's words. */
  validation: {
    tooLong: (max: number) => `Ce champ ne doit pas dépasser ${max} caractères.`,
    tooBig: (max: string) => `La valeur ne doit pas dépasser ${max}.`,
    required: 'Ce champ est requis.',
    tooShort: (min: string) => `Ce champ doit contenir au moins ${min} caractères.`,
    tooSmall: (min: string) => `La valeur doit être au moins ${min}.`,
    idInvalid: 'Identifiant invalide.',
    emailInvalid: 'Veuillez entrer une adresse e-mail valide.',
    dateInvalid: 'Date invalide.',
    formatInvalid: 'Format invalide.',
    valueRefused: "Cette valeur n'est pas acceptée.",
    countryInvalid: 'Veuillez sélectionner un pays de la liste.',
    /**
     * Issue 27: every phone field (a visitor's, a staff member's, a card holder's, a company's)
     * follows one rule, read by libphonenumber: a number of Côte d'Ivoire as written there, or
     * any other with its country code. Not the spec's '8 à 15 chiffres', which that rule is not.
     */
    phoneInvalid:
      "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
    /** Issue 26 §5: a single-line field (a name, a host…) refuses line breaks and control characters. */
    controlChars: 'Ce champ ne peut pas contenir de retour à la ligne ni de caractère de contrôle.',
    /** A text of several lines (a description, a reason) keeps its line breaks only. */
    controlCharsInText:
      'Ce texte ne peut pas contenir de caractère de contrôle (une tabulation, par exemple).',
  },
  login: {
    emailRequired: "L'adresse email est requise.",
    emailInvalid: 'Veuillez saisir une adresse email valide.',
    passwordRequired: 'Le mot de passe est requis.',
    badCredentials: 'Identifiants incorrects.',
  },
  visitor: {
    fields: visitorFields,
    required: (field: keyof typeof visitorFields) => required(visitorFields[field]),
    emailInvalid: 'Veuillez entrer une adresse e-mail valide.',
    fileTooLarge: fileTooLarge(ID_FILE_MAX_BYTES),
    fileInvalid: 'Veuillez sélectionner un fichier valide',
    fileTypeRefused: 'La pièce doit être une image JPEG, PNG ou WebP, ou un PDF.',
    dateMissing: 'Date non sélectionnée',
    dateInvalid: 'Date invalide',
    datePast: 'La date de la visite ne peut pas être dans le passé.',
    hourMissing: "Veuillez sélectionner l'heure.",
    minuteMissing: 'Veuillez sélectionner les minutes.',
    tooLong: 'La requête est mal formée.',
    /** Issue 16: the privacy notice must be accepted (the form and the server both check it). */
    privacyRequired: 'Veuillez accepter la notice de confidentialité.',
    /** Spec §8: the screens' success texts (the server answers them as `message`). */
    visitorCreated: 'Visiteur créé avec succès.',
    requestCreated: 'Demande créée avec succès.',
  },
  request: {
    created: 'Demande créée avec succès.',
    confirmed: 'Demande confirmée.',
    alreadyRequested: 'Une demande existe déjà pour ce visiteur.',
    visitorDeleted: 'Visiteur supprimé.',
    hostUnknown: "Cet hôte n'est pas un membre de l'entreprise.",
    declined: 'Demande annulée.',
    alreadyDeclined: 'Cette demande a déjà été annulée.',
    /** Annuler on a request a colleague (or the host, from the mail) confirmed first. */
    alreadyConfirmed: 'Cette demande a déjà été confirmée.',
    /** Annuler from the waiting screen: the visitor is told by e-mail (issue 15). */
    declinedByStaff: 'Demande annulée. Le visiteur en est informé par e-mail.',
  },
  /** What the host's decision link answers (issue 15). */
  decision: {
    invalid: "Ce lien n'est pas valide.",
    expired: 'Ce lien a expiré : le jour du rendez-vous est passé.',
    confirmed: 'Rendez-vous confirmé. Le visiteur reçoit son code par e-mail.',
    declined: 'Rendez-vous annulé. Le visiteur en est informé par e-mail.',
    alreadyDecided: 'Cette demande a déjà reçu une réponse.',
  },
  mailPreferences: {
    saved: 'Préférences enregistrées.',
  },
  company: {
    fields: companyFields,
    required: (field: keyof typeof companyFields) => required(companyFields[field]),
    emailInvalid: 'Veuillez entrer une adresse e-mail valide.',
    employeeRangeInvalid: "Veuillez choisir une tranche du nombre d'employés.",
    arrivalEarlyInvalid: `Les arrivées anticipées se comptent en minutes, de 0 à ${ARRIVAL_EARLY_MAX_MINUTES}.`,
    kioskEmailInvalid: 'La présence par e-mail est activée ou non : « true » ou « false ».',
    dayEndInvalid: 'La fin de journée est une heure HH:MM, de 00:00 à 23:59.',
    slugStable:
      "Le slug d'une entreprise ne change pas : ses liens et ses QR codes imprimés en dépendent.",
    defaultCompany: "L'entreprise par défaut ne peut pas être supprimée.",
    /** Spec §8 company create and update. */
    created: 'Entreprise créée avec succès.',
    updated: 'Entreprise mise à jour avec succès.',
    deleted: 'Entreprise supprimée avec succès.',
    /** Deleting a company is refused while it still holds data: nothing is lost by accident. */
    notEmpty: (name: string, holdings: string[]) =>
      `Impossible de supprimer l'entreprise « ${name} » : elle contient encore ${holdings.join(', ')}. Supprimez-les d'abord.`,
    /** What a company still holds, counted (the words `notEmpty` lists). */
    holdings: {
      users: (n: number) => plural(n, 'utilisateur', 'utilisateurs'),
      visitors: (n: number) => plural(n, 'visiteur', 'visiteurs'),
      events: (n: number) => plural(n, 'évènement', 'évènements'),
      qrUsers: (n: number) => plural(n, 'QR code ou carte membre', 'QR codes ou cartes membres'),
      /** When the count could not be told (a race with another delete). */
      some: 'des données',
    },
  },
  event: {
    fields: eventFields,
    required: (field: keyof typeof eventFields) => required(eventFields[field]),
    /** Spec §5 visitor form's date message, for the same DD/MM/YYYY field. */
    dateInvalid: 'Date invalide',
    timeInvalid: 'Veuillez choisir une heure valide (HH:MM).',
    datePast:
      "La date de l'événement est déjà passée : choisissez aujourd'hui ou une date à venir.",
    /** Spec §8. */
    created: 'Événement créé avec succès !',
    added: 'Événement ajouté',
    found: 'Événement retrouvé',
    createFailed: 'Erreur lors de la création de l’événement.',
    networkError: 'Erreur réseau ou serveur non joignable.',
    loadFailed: 'Erreur lors du chargement des données.',
    listFailed: 'Erreur lors de la récupération des events.',
    deleteFailed: "Erreur lors de la suppression de l'événement",
    mustBeLoggedIn: "L'utilisateur doit être connecté",
    deleted: 'Événement supprimé.',
    closedNow: 'Les inscriptions à cet événement sont maintenant closes.',
    /** Deleting an event would lose its participants and their check-ins: refused while it has some. */
    hasParticipants: (name: string, count: number) =>
      `Impossible de supprimer l'événement « ${name} » : ${count} participant${count > 1 ? 's y sont inscrits' : ' y est inscrit'}. Clôturez-le plutôt.`,
    /** Registration through the share link. */
    registrationClosed: 'Les inscriptions à cet événement sont closes.',
    eventOver: 'Cet événement est terminé : les inscriptions sont closes.',
    alreadyRegistered: 'Vous êtes déjà inscrit à cet événement avec cette adresse e-mail.',
    /** One client registers a few people to one event per hour. */
    clientLimit:
      "Trop d'inscriptions à cet événement depuis cet appareil. Réessayez dans une heure.",
    /** One address receives at most a few registration mails a day (the link is public). */
    recipientLimit:
      "Cette adresse e-mail a reçu trop d'inscriptions aujourd'hui. Réessayez demain ou contactez l'organisateur.",
    registered: 'Votre QRCode a été envoyé par e-mail, Merci',
  },
  user: {
    fields: userFields,
    required: (field: keyof typeof userFields) => required(userFields[field]),
    emailInvalid: 'Veuillez entrer une adresse e-mail valide.',
    passwordTooShort: `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`,
    passwordWeak:
      'Ce mot de passe est trop courant ou trop facile à deviner : choisissez-en un plus long, fait de mots sans rapport entre eux.',
    companyInvalid: "L'entreprise choisie n'existe pas.",
    roleInvalid: "Ce rôle n'existe pas.",
    /** Spec §8 User creation, 409. */
    emailTaken: 'Un compte avec cet email existe déjà pour cette entreprise.',
    roleNotAssignable: "Vous n'avez pas la permission d'attribuer ce rôle.",
    userProtected: "Vous n'avez pas la permission de modifier cet utilisateur.",
    lastAdmin: 'Le dernier administrateur ne peut être ni supprimé, ni désactivé, ni rétrogradé.',
    /** Issue 28: a home site or a site of the limits that is not an active site of the company. */
    siteInvalid: "Ce site n'est pas un site actif de l'entreprise de l'utilisateur.",
    homeSiteOutside: 'Le site de rattachement doit faire partie des sites autorisés.',
    created: "L'utilisateur a été créé avec succès.",
    updated: 'Utilisateur mis à jour avec succès.',
    deleted: 'Utilisateur supprimé avec succès.',
  },
  account: {
    fields: accountFields,
    required: (field: keyof typeof accountFields) => required(accountFields[field]),
    passwordMismatch: 'Les deux mots de passe ne correspondent pas.',
    passwordUnchanged: "Le nouveau mot de passe doit être différent de l'actuel.",
    currentPasswordWrong: 'Le mot de passe actuel est incorrect.',
    passwordChanged: 'Mot de passe modifié.',
  },
  qrUser: {
    fields: qrUserFields,
    required: (field: keyof typeof qrUserFields) => required(qrUserFields[field]),
    emailInvalid: 'Veuillez entrer une adresse e-mail valide.',
    typeInvalid: 'Le seul type de QR code est « permanent ».',
    dateInvalid: 'Date invalide',
    /** A new code must work at least until the end of today, in the company's time zone. */
    dateExpPast:
      "La date d'expiration est déjà passée : choisissez aujourd'hui ou un jour à venir.",
    companyInvalid: "L'entreprise choisie n'existe pas.",
    nothingToUpdate: 'La requête est mal formée.',
    alreadyReplaced: 'Cette carte a déjà été remplacée par une nouvelle.',
    /** Spec §8 QR creation / member card: success texts the screens show. */
    qrCreated: 'QR Code créé avec succès.',
    memberCreated: 'Carte créée avec succès.',
    updated: 'Utilisateur QR mis à jour avec succès.',
    reissued: 'Nouvelle carte émise : l’ancien code est désactivé.',
  },
  check: {
    checkedIn: (name: string) => `Arrivée enregistrée : ${name}.`,
    checkedOut: (name: string) => `Départ enregistré : ${name}.`,
    alreadyIn: (name: string, time: string) =>
      `${name} est déjà enregistré(e) à l'arrivée à ${time}.`,
    alreadyOut: (name: string, time: string) =>
      `${name} est déjà enregistré(e) au départ à ${time}.`,
    unknownCode: 'QR Code inconnu.',
    notConfirmed: "La demande de ce visiteur n'est pas encore confirmée.",
    meetingDayOver: "Ce QR Code n'est plus valable : la date du rendez-vous est passée.",
    eventOver: "Ce QR Code n'est plus valable : l'événement est terminé.",
    /** A code scanned before its day (in the company's time zone, less its early-arrival minutes). */
    meetingNotYet: (date: string) =>
      `Ce QR Code n'est pas encore valable : le rendez-vous est prévu le ${date}.`,
    eventNotYet: (date: string) =>
      `Ce QR Code n'est pas encore valable : l'événement a lieu le ${date}.`,
    expired: (date: string) => `Ce QR Code a expiré le ${date}.`,
    replaced: 'Ce QR Code a été remplacé par une nouvelle carte.',
    unknownEmail: 'Aucun QR Code de cette entreprise ne correspond à cette adresse e-mail.',
    /** The kiosk's e-mail presence is off unless the company turned it on (an e-mail is no secret). */
    kioskEmailOff: "La présence par e-mail n'est pas activée pour cette entreprise.",
  },
  undo: {
    reasonRequired: 'Indiquez pourquoi ce passage est annulé.',
    tooLate: `Ce passage ne peut plus être annulé : il date de plus de ${UNDO_WINDOW_MINUTES} minutes.`,
    notLatest: "Seul le dernier passage d'une personne peut être annulé.",
    alreadyUndone: 'Ce passage est déjà annulé.',
    arrivalUndone: (name: string) => `Arrivée annulée : ${name}.`,
    departureUndone: (name: string) => `Départ annulé : ${name}.`,
  },
  mail: {
    resent: 'Le mail sera renvoyé dans un instant.',
    nothingToResend: "Il n'y a aucun mail à renvoyer pour cette personne.",
  },
  availability: {
    databaseUnavailable:
      'Service momentanément indisponible (base de données injoignable). Réessayez dans un instant.',
    storageUnavailable:
      'Service momentanément indisponible (stockage des fichiers injoignable). Réessayez dans un instant.',
    idempotencyKeyInvalid:
      "L'en-tête Idempotency-Key doit faire de 8 à 100 caractères (lettres, chiffres, tirets).",
    /** A key sent again with another request (another code, another body): never the first answer. */
    idempotencyKeyReused: "Cette clé d'idempotence a déjà servi pour une autre demande.",
  },
  privacy: {
    retentionSaved: 'Les paramètres de confidentialité ont été enregistrés.',
    erased: 'Les données de cette personne ont été effacées.',
    /** Issue 27: a person's export is named `<this>-<their name>-<the day>.zip` (ASCII: a file name). */
    exportFileName: 'sesame-donnees',
    noticeRequired: 'Veuillez accepter la notice de confidentialité.',
    daysInvalid: 'Nombre de jours invalide.',
    daysTooFew: 'Au moins 1 jour.',
    daysTooMany: (max: number) => `Au plus ${max} jours.`,
    /** Issue 26: the operator's floor (AUDIT_MIN_DAYS), which no company role goes under. */
    auditTooShort: (min: number) =>
      `Le journal d'audit est conservé au moins ${min} jours : c'est le minimum fixé par l'exploitant.`,
    /** A save that shortened a period: it applies only after the delay. */
    retentionSavedShortened: (delay: number) =>
      `Les paramètres de confidentialité ont été enregistrés. Une durée raccourcie ne s'appliquera que dans ${delay} jours.`,
  },
  audit: {
    /** Issue 26 §9: the audit log's origin filter (`by`). */
    originInvalid:
      "Origine inconnue : choisissez « platform » (la plateforme Sésame) ou « company » (l'entreprise).",
  },
  /** Issue 28: a company's sites (buildings). */
  site: {
    fields: siteFields,
    required: (field: keyof typeof siteFields) => required(siteFields[field]),
    timezoneInvalid: 'Veuillez choisir un fuseau horaire de la liste (par exemple Europe/Paris).',
    timeInvalid: 'Veuillez entrer une heure HH:MM, de 00:00 à 23:59.',
    shortCodeInvalid: 'Le code court compte 2 à 6 lettres ou chiffres (par exemple PAR).',
    nameTaken: 'Un autre site de cette entreprise porte déjà ce nom.',
    shortCodeTaken: 'Un autre site de cette entreprise a déjà ce code court.',
    created: 'Site créé avec succès.',
    updated: 'Site mis à jour avec succès.',
    archived: 'Site archivé.',
    restored: 'Site rétabli.',
    deleted: 'Site supprimé.',
    /** A site with history (requests, events, checks) is archived, never deleted. */
    hasHistory: 'Ce site a un historique (demandes, évènements ou passages) : archivez-le plutôt.',
    lastSite: 'Une entreprise garde au moins un site actif.',
    /** A site deleted would leave staff limited to it with no site (so with every site). */
    onlySiteOfStaff:
      "Des membres du personnel n'ont accès qu'à ce site : changez d'abord leurs sites, ou archivez-le.",
    archivedSite: 'Ce site est archivé.',
    /** The public form of a company with several sites. */
    choose: 'Veuillez choisir le site de votre visite.',
    /** A visitor's code scanned at another site's desk. */
    otherSite: (site: string) => `Ce code est attendu sur le site « ${site} ».`,
    /** A staff member limited to some sites acting on another. */
    notYours: "Vous n'avez pas accès à ce site.",
    all: 'Tous les sites',
  },
  invitation: {
    fields: invitationFields,
    required: (field: keyof typeof invitationFields) => required(invitationFields[field]),
    contactRequired: 'Veuillez entrer une adresse e-mail ou un numéro de téléphone.',
    languageInvalid: 'Veuillez choisir la langue des e-mails : français ou anglais.',
    timeInvalid: "Veuillez choisir l'heure et les minutes.",
    endBeforeStart: "L'heure de fin doit suivre l'heure de début.",
    ruleInvalid:
      'Cette répétition ne peut pas être lue : choisissez des jours de la semaine et une date de fin.',
    ruleTooLong: (days: number) =>
      `Une invitation peut compter ${days} jours au plus : choisissez une date de fin plus proche.`,
    ruleNoDay: 'Cette répétition ne compte aucun jour : vérifiez les jours et la date de fin.',
    datePast: 'Cette date est déjà passée sur le site choisi.',
    visitorsRequired: 'Ajoutez au moins un visiteur.',
    tooManyVisitors: (max: number) => `Une invitation compte ${max} visiteurs au plus.`,
    dayUnknown: "Ce jour ne fait pas partie de l'invitation.",
    alreadyCancelled: 'Cette invitation est déjà annulée.',
    csvMissing: 'Veuillez joindre le fichier CSV des visiteurs.',
    csvTooLarge: (mo: string) => `Le fichier CSV dépasse ${mo} Mo.`,
    csvUnreadable: 'Ce fichier ne peut pas être lu comme un CSV (séparateur ; ou ,).',
    csvHeader: (columns: string) => `La première ligne doit nommer les colonnes : ${columns}.`,
    csvEmpty: "Le fichier ne contient aucun visiteur sous la ligne d'en-tête.",
    csvErrors: (lines: number) =>
      lines === 1
        ? "1 ligne est à corriger : rien n'a été créé."
        : `${lines} lignes sont à corriger : rien n'a été créé.`,
    created: (visitors: number) =>
      visitors === 1 ? 'Invitation envoyée.' : `${visitors} invitations envoyées.`,
    updated: 'Invitation modifiée : les visiteurs ont reçu la mise à jour.',
    cancelled: 'Invitation annulée : les visiteurs ont été prévenus.',
    dayCancelled: 'Ce jour est annulé : les visiteurs ont été prévenus.',
    /** Issue 34: an invitation made with an API key names its host (a key is not a person). */
    hostRequired:
      "Une invitation faite avec une clé API doit nommer son hôte : host_email, l'adresse e-mail d'un membre actif du personnel de l'entreprise.",
    hostUnknown: "Aucun membre actif du personnel de l'entreprise n'a cette adresse e-mail.",
    /** The visitor's link: unknown, altered, or past the visit's end. */
    linkInvalid: "Ce lien d'invitation n'est pas valide ou a expiré.",
    /** "Je suis arrivé(e)" pressed on another day than one of the visit's. */
    notToday: "Votre visite n'est pas prévue aujourd'hui : le bouton sert le jour de la visite.",
    hostTold: (host: string) => `${host} est prévenu(e) de votre arrivée.`,
    deskTold: "L'accueil est prévenu de votre arrivée.",
    detailsSaved: 'Merci, vos informations sont enregistrées. À bientôt !',
    detailsClosed: 'Cette invitation est annulée : il n’y a plus rien à compléter.',
    // H2
    /** "Je suis arrivé(e)" pressed for a visit its host cancelled. */
    visitCancelled: 'Cette visite a été annulée par votre hôte.',
    // H4
    /** A CSV line of another number of cells than its header names. */
    csvCells: (found: number, expected: number) =>
      `Cette ligne compte ${found} ${found === 1 ? 'cellule' : 'cellules'} au lieu de ${expected}.`,
    /** A quote opened and never closed, or text after a closing quote: the CSV stops there. */
    csvQuotes:
      "Un guillemet de cette ligne n'est pas refermé, ou du texte le suit dans sa cellule : le fichier ne peut pas être lu plus loin.",
  },
  kiosk: {
    fields: kioskFields,
    required: (field: keyof typeof kioskFields) => required(kioskFields[field]),
    secondsInvalid: (min: number, max: number) =>
      `Veuillez entrer un nombre de secondes entre ${min} et ${max}.`,
    printerInvalid:
      "Veuillez entrer l'adresse IPP de l'imprimante (par exemple ipp://192.168.1.20/ipp/print).",
    badgeSizeInvalid: 'Veuillez choisir un format de badge de la liste.',
    codeInvalid: 'Le code compte 6 chiffres.',
    /** A pairing code unknown, already used or past its 10 minutes. */
    codeRefused:
      "Ce code n'est pas valide ou a expiré. Demandez un nouveau code à l'administrateur.",
    /** The device token of a revoked kiosk, or none. */
    deviceRefused: "Cette tablette n'est plus appairée. Saisissez un nouveau code d'appairage.",
    searchTooShort: 'Tapez au moins 2 lettres de votre nom.',
    checkWhom: 'Choisissez votre rendez-vous ou scannez votre code.',
    contactRequired: 'Veuillez entrer une adresse e-mail ou un numéro de téléphone.',
    photoInvalid: 'La photo doit être une image JPEG de 400 Ko au plus.',
    /** The visit found is of another site, or not today. */
    notHere: "Ce rendez-vous n'est pas attendu ici aujourd'hui. Adressez-vous à l'accueil.",
    checkedIn: (firstname: string) => `Bienvenue ${firstname}, votre arrivée est enregistrée.`,
    checkedOut: (firstname: string) => `Au revoir ${firstname}, votre départ est enregistré.`,
    alreadyIn: (firstname: string) => `${firstname}, votre arrivée est déjà enregistrée.`,
    alreadyOut: (firstname: string) => `${firstname}, votre départ est déjà enregistré.`,
    notInside: "Aucune arrivée en cours n'est enregistrée pour ce code.",
    created: 'Borne créée. Saisissez le code sur la tablette.',
    updated: 'Borne mise à jour.',
    revoked: 'Borne révoquée : la tablette ne peut plus rien faire.',
    newCode: "Nouveau code d'appairage créé.",
    deleted: 'Borne supprimée.',
  },
  visitorType: {
    fields: visitorTypeFields,
    required: (field: keyof typeof visitorTypeFields) => required(visitorTypeFields[field]),
    colorInvalid: 'Veuillez choisir une couleur #RRVVBB (par exemple #1971C2).',
    timeInvalid: 'Veuillez entrer une heure HH:MM, de 00:00 à 23:59.',
    validityDaysInvalid: 'Veuillez entrer un nombre de jours de validité (1 à 3650).',
    bodyRequired: 'Le texte du document ne peut pas être vide.',
    nameTaken: 'Un autre type de visiteur de ce site porte déjà ce nom.',
    tooManyTypes: (max: number) => `Un site compte ${max} types de visiteurs au plus.`,
    documentOtherSite: 'Ce document appartient à un autre site : choisissez-en un de ce site.',
    typeUnknown: "Ce type de visiteur n'existe pas sur ce site.",
    typeChoose: 'Veuillez choisir le type de votre visite.',
    created: 'Type de visiteur créé.',
    updated: 'Type de visiteur mis à jour.',
    archived: 'Type de visiteur archivé.',
    restored: 'Type de visiteur rétabli.',
    documentCreated: 'Document créé.',
    documentUpdated: (version: number) => `Document enregistré : version ${version}.`,
    documentUnchanged: "Le texte n'a pas changé : la version reste la même.",
    documentArchived: 'Document archivé.',
    /** A field the visitor's type requires, left blank (the public form, the kiosk, the invitation). */
    fieldRequired: (field: keyof typeof visitorTypeFields) => required(visitorTypeFields[field]),
    signerNameRequired: 'Veuillez écrire votre nom complet.',
    signatureMissing: 'Veuillez signer dans le cadre, ou signez en tapant votre nom.',
    typedNotAccepted: 'Cochez la case pour signer en tapant votre nom.',
    signatureInvalid: 'La signature doit être une image PNG de 200 Ko au plus.',
    /** A document of the type left unsigned. */
    toSign: (title: string) => `Veuillez lire et signer « ${title} ».`,
    /** The document changed while the visitor read it. */
    versionChanged: (title: string) =>
      `« ${title} » vient d'être mis à jour : lisez la nouvelle version et signez-la.`,
    signed: 'Document signé.',
    pdfSent: 'Le document signé vous a été envoyé par e-mail.',
    /** The visitor's request for the signed PDF came later than its window after signing. */
    pdfSendClosed:
      "Le document signé ne peut plus être envoyé d'ici : demandez-en une copie à l'accueil.",
    /** No e-mail address was given with the signature. */
    pdfNoEmail:
      "Aucune adresse e-mail n'a été donnée : demandez une copie du document signé à l'accueil.",
  },
  /** Issue 33: single sign-on with the company's identity provider, and SCIM provisioning. */
  sso: {
    issuerInvalid:
      "Veuillez saisir l'URL de l'émetteur (https://…) telle que le fournisseur la donne.",
    clientIdRequired: "Veuillez saisir l'identifiant client (client id).",
    domainInvalid: 'Veuillez saisir des domaines de messagerie valides (exemple.com).',
    domainRepeated: 'Chaque domaine ne doit figurer qu’une fois.',
    domainsRequired: 'Indiquez au moins un domaine de messagerie couvert par le fournisseur.',
    domainTaken: (domain: string) =>
      `Le domaine ${domain} est déjà couvert par une autre entreprise.`,
    claimInvalid:
      'Le nom de la revendication des groupes ne peut contenir que lettres, chiffres et _ : . / -',
    groupRequired: 'Veuillez saisir le nom du groupe.',
    groupRepeated: 'Chaque groupe ne doit figurer qu’une fois.',
    secretRequired: 'Veuillez saisir le secret client (client secret).',
    tokenNameRequired: 'Veuillez nommer ce jeton (par exemple : Entra ID).',
    tokensTooMany: (max: number) =>
      `Une entreprise peut avoir au plus ${max} jetons SCIM actifs : révoquez-en un d’abord.`,
    saved: 'Configuration de connexion unique enregistrée.',
    tokenCreated: 'Jeton SCIM créé. Copiez-le maintenant : il ne sera plus affiché.',
    tokenRevoked: 'Jeton SCIM révoqué.',
    /** "Tester la connexion": one sentence, what was found or what is wrong. */
    testOk: (issuer: string) => `Connexion réussie : le fournisseur ${issuer} a répondu.`,
    testUnreachable: (issuer: string) =>
      `Le fournisseur ${issuer} ne répond pas : vérifiez l'URL de l'émetteur et qu'il est joignable depuis Sésame.`,
    testNotOidc: (issuer: string) =>
      `${issuer} ne publie pas de configuration OpenID Connect (/.well-known/openid-configuration).`,
    testIssuerMismatch: (announced: string) =>
      `Le fournisseur s'annonce comme ${announced} : saisissez exactement cette URL d'émetteur.`,
    testNoCodeFlow: 'Le fournisseur ne propose pas le flux « authorization code » avec PKCE.',
    /** The sign-in, back from the provider: what the person reads on the login page. */
    signInFailed: 'La connexion par votre fournisseur d’identité a échoué. Veuillez réessayer.',
    signInExpired:
      'La connexion a pris trop de temps ou a déjà été utilisée. Veuillez recommencer.',
    signInCancelled: 'La connexion a été annulée auprès de votre fournisseur d’identité.',
    noAccount:
      "Aucun compte Sésame n'existe pour cette adresse. Demandez à l'administrateur de votre entreprise de vous en créer un.",
    providerUnavailable:
      'Le fournisseur d’identité de votre entreprise ne répond pas. Veuillez réessayer dans un instant.',
    /** A password sign-in refused because the company signs in through its provider. */
    passwordDisabled:
      "Votre entreprise impose la connexion par son fournisseur d'identité : saisissez l'adresse e-mail qu'il gère, puis « Continuer ».",
    passwordChangeDisabled:
      "Votre mot de passe est géré par le fournisseur d'identité de votre entreprise.",
  },
  /**
   * SCIM 2.0 (issue 33): the `detail` of an error answered to a company's directory
   * (Entra ID, Okta), which shows it in its provisioning log.
   */
  integrations: {
    nameRequired: 'Veuillez nommer cette clé (par exemple : Outil RH).',
    scopesRequired: 'Choisissez au moins une autorisation.',
    expiryPast: "La date d'expiration doit être dans le futur.",
    keysTooMany: (max: number) =>
      `Une entreprise peut avoir au plus ${max} clés API actives : révoquez-en une d'abord.`,
    keyCreated: 'Clé API créée. Copiez-la maintenant : elle ne sera plus affichée.',
    keyRevoked: 'Clé API révoquée.',
    /** A call with a key whose scopes do not open the route. */
    keyScopeMissing: "Cette clé API n'a pas l'autorisation nécessaire pour cette action.",
    keyRefused: 'Clé API absente, invalide, expirée ou révoquée.',
    /** The first name of a key's service account: the audit log names the key "Clé API <nom>". */
    keyAccountFirstname: 'Clé API',
    urlInvalid: "Veuillez saisir l'adresse complète du récepteur (https://…).",
    urlNotHttps: "L'adresse du récepteur doit commencer par https://.",
    urlPrivate:
      "Cette adresse mène à un réseau privé ou local : Sésame n'y envoie rien (l'opérateur peut l'autoriser).",
    eventsRequired: 'Choisissez au moins un événement.',
    secretInvalid:
      'Le secret doit être au format Standard Webhooks : whsec_ suivi de 24 à 64 octets en base64.',
    webhooksTooMany: (max: number) =>
      `Une entreprise peut avoir au plus ${max} webhooks : supprimez-en un d'abord.`,
    webhookCreated: 'Webhook créé. Copiez son secret maintenant : il ne sera plus affiché.',
    webhookSaved: 'Webhook enregistré.',
    webhookDeleted: 'Webhook supprimé.',
    testQueued: "Événement de test envoyé : son résultat s'affiche dans le journal.",
    resendQueued: 'Nouvel envoi programmé.',
    channelNameRequired: 'Veuillez nommer ce canal (par exemple : #accueil).',
    channelsTooMany: (max: number) =>
      `Une entreprise peut connecter au plus ${max} canaux : supprimez-en un d'abord.`,
    channelAdded: 'Canal connecté.',
    channelRemoved: 'Canal déconnecté.',
    chatSaved: 'Messagerie enregistrée.',
  },
  scim: {
    tokenRefused: 'Jeton SCIM absent, invalide ou révoqué.',
    invalidSyntax: "La requête SCIM n'est pas un JSON conforme au schéma attendu.",
    invalidFilter: (filter: string) => `Filtre non pris en charge : ${filter}`,
    invalidPath: (path: string) => `Chemin non pris en charge : ${path}`,
    noTarget: (path: string) => `Aucune valeur ne correspond au chemin : ${path}`,
    invalidValue: (attribute: string) => `Valeur invalide pour l'attribut ${attribute}.`,
    mutability: (attribute: string) => `L'attribut ${attribute} ne peut pas être modifié.`,
    userNameRequired: 'userName est requis : l’adresse e-mail du compte.',
    groupNameRequired: 'displayName est requis : le nom du groupe.',
    groupNameTaken: 'Un groupe de cette entreprise porte déjà ce nom.',
    memberUnknown: (id: string) => `Aucun compte de cette entreprise n'a l'identifiant ${id}.`,
  },
  watchlist: {
    identifierRequired:
      'Indiquez un nom et un prénom, une adresse e-mail, un téléphone ou un numéro de pièce.',
    untilInvalid: 'Veuillez entrer une date de fin au format JJ/MM/AAAA.',
    reasonRequired: 'Veuillez indiquer un motif.',
    thresholdInvalid: 'Le seuil de ressemblance des noms va de 0,3 à 1.',
    created: 'Personne ajoutée à la liste de surveillance.',
    updated: 'Fiche mise à jour.',
    deleted: 'Personne retirée de la liste de surveillance.',
    settingsSaved: 'Seuil enregistré.',
    /** What the kiosk tells a walk-in held for review (never why). */
    kioskHeld: "Merci, quelqu'un va venir vous accueillir.",
    /** What the scan answers the agent (never the visitor's screen). */
    scanHeld: 'Contrôle requis',
    scanHeldDetail:
      "Ce visiteur doit être vu par la sécurité avant d'entrer. Ne le laissez pas passer.",
    /** A host confirming a request held for review. */
    requestHeld: 'Cette demande est en cours de contrôle : elle pourra être validée après.',
    denied: 'Cette visite a été refusée après contrôle.',
    alreadyDecided: 'Ce contrôle a déjà été décidé.',
    allowed: 'Visite autorisée pour cette fois.',
    deniedDone: 'Visite refusée.',
  },
  badge: {
    /** The band across the badge. */
    band: 'VISITEUR',
    validOn: (day: string) => `Valable le ${day} uniquement`,
    host: 'Hôte',
    noPrinter: "Aucune imprimante de badges n'est configurée pour ce site.",
    printerUnreachable: (printer: string) =>
      `L'imprimante ${printer} ne répond pas. Vérifiez qu'elle est allumée, ou imprimez depuis le navigateur.`,
    printerRefused: (printer: string, reason: string) =>
      `L'imprimante ${printer} a refusé le badge : ${reason}.`,
    printed: 'Badge imprimé.',
    reprinted: 'Badge réimprimé.',
    /** No badge for a request not confirmed (nor for an event's guest: their QR is their ticket). */
    notConfirmed: "Le badge s'imprime une fois la demande validée.",
  },
  rollCall: {
    alreadyRunning: "Un appel d'évacuation est déjà en cours.",
    /** Issue 28: a person limited to several sites names the one evacuated. */
    siteRequired: 'Choisissez le site à évacuer.',
    ended: "Cet appel d'évacuation est terminé.",
    statusUnknown: 'Statut inconnu.',
  },
  /** The dashboard (issue 35): its filters' errors, its figures' and charts' words (screen, CSV, mail). */
  dashboard: {
    dateInvalid: 'Veuillez saisir une date valide (AAAA-MM-JJ).',
    rangeReversed: 'La date de fin doit suivre la date de début.',
    rangeTooLong: (max: number) => `Une période dure au plus ${max} jours.`,
    /** The figures, as the CSV, the table view and the weekly mail name them. */
    figures: {
      arrivals: 'Arrivées',
      visits: 'Visites',
      expected: 'Visites attendues',
      no_shows: 'Visiteurs absents',
      peak_on_site: 'Pic de présence',
      visit_length_median_minutes: 'Durée médiane de visite (min)',
      visit_length_p90_minutes: 'Durée de visite, 90e centile (min)',
      automatic_check_outs: 'Départs automatiques',
      decisions: 'Demandes traitées',
      decision_median_minutes: 'Délai médian de réponse (min)',
      decision_p90_minutes: 'Délai de réponse, 90e centile (min)',
      event_registrations: 'Inscriptions aux événements',
      event_attendees: 'Participants aux événements',
    },
    /** Each chart's title and its CSV's header (the table view shows the same columns). */
    charts: {
      visits_per_day: {
        title: 'Visites par jour',
        header: ['Jour', 'Type de visiteur', 'Visites'],
      },
      arrivals_by_hour: {
        title: 'Arrivées par heure et jour de la semaine',
        header: ['Jour de la semaine', 'Heure', 'Arrivées'],
      },
      on_site_peaks: { title: 'Pic de présence par jour', header: ['Jour', 'Pic de présence'] },
      visit_lengths: { title: 'Durée des visites', header: ['Durée', 'Visites'] },
      no_shows_per_day: {
        title: 'Visiteurs absents par jour',
        header: ['Jour', 'Visites attendues', 'Visiteurs absents'],
      },
      decision_times: { title: 'Délai de réponse aux demandes', header: ['Délai', 'Demandes'] },
      event_attendance: {
        title: 'Participation aux événements',
        header: ['Événement', 'Jour', 'Inscriptions', 'Participants'],
      },
      top_hosts: { title: 'Hôtes les plus visités', header: ['Hôte', 'Visites'] },
    },
    weekdays: ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'],
    /** A visitor of no type in "Visites par jour". */
    noType: 'Sans type',
    /** A bucket of minutes: 'de 15 à 30 min', 'plus de 8 h'. */
    bucket: (from: number, to: number | null) =>
      to === null
        ? `${from >= 60 ? `${from / 60} h` : `${from} min`} et plus`
        : `${from >= 60 ? `${from / 60} h` : `${from} min`} à ${to >= 60 ? `${to / 60} h` : `${to} min`}`,
    /** The figures table of the CSV without ?chart=. */
    figuresHeader: ['Indicateur', 'Période', 'Période précédente'],
    fileName: 'tableau-de-bord',
    /**
     * The weekly summary mail (issue 35): its words, and what "Mes notifications" answers
     * when it is switched on. The figures and charts are named as above.
     */
    weeklyMail: {
      subject: (place: string, monday: string) =>
        `Résumé hebdomadaire – ${place} – semaine du ${monday}`,
      greeting: (firstname: string) => `Bonjour ${firstname},`,
      intro: (from: string, to: string) =>
        `Voici les chiffres de la semaine du ${from} au ${to}, comparés à ceux de la semaine précédente.`,
      scopeSite: (site: string) => `Site : ${site}`,
      /** No site chosen: every site the reader may see. */
      scopeAll: 'Sites : tous vos sites',
      figuresTitle: 'Les chiffres de la semaine',
      figure: 'Indicateur',
      thisWeek: 'Cette semaine',
      previousWeek: 'Semaine précédente',
      change: 'Évolution',
      /** A median with nothing to measure (no visit left, no request answered). */
      none: 'aucune donnée',
      visitsAlt: (days: string) =>
        `Diagramme en barres des visites de chaque jour de la semaine, du lundi au dimanche : ${days}.`,
      heatmapAlt: (busiest: string) =>
        `Carte de chaleur des arrivées, une ligne par jour du lundi au dimanche et une colonne par heure de la journée, plus foncée aux heures les plus chargées ; ${busiest}.`,
      heatmapLegend:
        "Lignes : du lundi (en haut) au dimanche. Colonnes : les heures de la journée, de minuit (à gauche) à 23 h. Plus la case est foncée, plus il y a eu d'arrivées.",
      busiest: (day: string, hour: string, arrivals: string) =>
        `heure la plus chargée : ${day} à ${hour} (${arrivals} arrivées)`,
      noArrivals: 'aucune arrivée cette semaine',
      hostsAlt: (hosts: string) =>
        `Barres horizontales des hôtes les plus visités, du plus visité au moins visité : ${hosts}.`,
      noHosts: 'Aucune visite avec un hôte cette semaine.',
      open: 'Ouvrir le tableau de bord',
      why: "Vous recevez ce résumé chaque lundi parce que vous l'avez demandé dans « Mes notifications ».",
      stop: 'Ne plus le recevoir',
      footer: (company: string) =>
        `Résumé envoyé par ${company} avec Sésame. Merci de ne pas répondre à ce message.`,
      notAllowed:
        'Le résumé hebdomadaire est réservé aux personnes qui consultent le tableau de bord.',
      siteOutOfReach: 'Choisissez pour le résumé hebdomadaire un site que vous pouvez consulter.',
    },
  },
  live: {
    eventStreamOnly: 'Ce flux se lit en text/event-stream.',
    tooManyStreams: 'Trop de flux ouverts.',
  },
  /** The exports' headers and fixed cells (French Excel opens every language's file). */
  csv: {
    visitorLog: {
      /** The downloaded file's name, before its date. */
      fileName: 'liste-check-in',
      header: [
        'Prénom',
        'Nom',
        'E-mail',
        'Code',
        'Entreprise',
        'Site',
        'Arrivée',
        'Départ',
        "Mode d'arrivée",
        'Mode de départ',
        'Arrivée enregistrée par',
        'Départ enregistré par',
        'Annulation',
      ],
      methods: {
        scan: 'Scan QR',
        manual: 'Saisie manuelle',
        kiosk: 'Borne',
        automatic: 'Automatique',
      },
      /** An undone arrival: ' par {who}' when known, then ' : {why}'. */
      arrivalUndone: (by: string | null, reason: string) =>
        `Arrivée annulée${by ? ` par ${by}` : ''} : ${reason}`,
      departureUndone: (at: string, by: string | null, reason: string) =>
        `Départ du ${at} annulé${by ? ` par ${by}` : ''} : ${reason}`,
    },
    participants: {
      /** The file is named by the event's slug; this when it has none. */
      unnamedEvent: 'evenement',
      header: [
        'Prénom',
        'Nom',
        'E-mail',
        'Contact',
        'Employeur',
        'Inscription',
        'Arrivée',
        'Départ',
      ],
    },
    audit: {
      fileName: 'journal-audit',
      header: [
        'Date (UTC)',
        'Entreprise',
        'Auteur',
        'Origine',
        'Action',
        'Objet',
        'Identifiant',
        'Détail',
      ],
      system: 'Système',
      /** The origin column's cell of an entry made by the Sésame platform's staff. */
      platform: 'Plateforme Sésame',
    },
  },
} as const;
