/**
 * The server's words in English: the same keys as fr.ts (the `Catalogue` type is
 * made of the French one's, so a missing or extra key fails the type check).
 * Where the spec's own wording was English, it is kept as written.
 */
import {
  ARRIVAL_EARLY_MAX_MINUTES,
  ID_FILE_MAX_BYTES,
  PASSWORD_MIN_LENGTH,
  UNDO_WINDOW_MINUTES,
} from '../constants';
import type { Catalogue } from './catalogue';
import { megabytes } from './units';

const fileTooLarge = (maxBytes: number) =>
  `The file must not be larger than ${megabytes(maxBytes)} MB.`;
const required = (label: string) => `The "${label}" field is required.`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const visitorFields: Catalogue['visitor']['fields'] = {
  firstname: 'First names',
  lastname: 'Last name',
  id_number: 'ID document number',
  organisation_name: 'Employer',
  email: 'Email',
  contact: 'Contact',
};

const companyFields: Catalogue['company']['fields'] = {
  logo: 'Logo',
  name: 'Name',
  id_number: 'Registration number',
  address: 'Address',
  city: 'City',
  state: 'Region / State',
  country: 'Country',
  zipcode: 'Postal code',
  company_field: 'Industry',
  point_contact: 'Contact person',
  title: 'Job title',
  email: 'Email',
  phone_number: 'Phone',
  description: 'Description',
  number_of_employee: 'Number of employees',
};

const eventFields: Catalogue['event']['fields'] = {
  company_id: 'Company',
  name: 'Name',
  location: 'Place',
  address_name: 'Address',
  city: 'City',
  country: 'Country',
  state: 'Region / State',
  zipcode: 'Postal code',
  date_event: 'Date',
  time_event: 'Time',
};

const userFields: Catalogue['user']['fields'] = {
  name: 'Last name',
  firstname: 'First names',
  email: 'Email',
  password: 'Password',
  title: 'Job title',
  contact: 'Phone',
  role: 'Role',
  company_id: 'Company',
};

const accountFields: Catalogue['account']['fields'] = {
  current_password: 'Current password',
  new_password: 'New password',
  confirm_password: 'Confirm the password',
};

const qrUserFields: Catalogue['qrUser']['fields'] = {
  firstname: 'First name',
  lastname: 'Last name',
  contact: 'Contact',
  email: 'Email',
  title: 'Job title',
  company_id: 'Company',
  user_document: 'Document',
  dateExp: 'Expiry date',
};

export const en: Catalogue = {
  api: {
    badRequest: 'The request is malformed.',
    unauthenticated: 'You must be signed in.',
    forbidden: 'You do not have permission.',
    notFound: 'The requested resource does not exist.',
    internal: 'An internal error occurred.',
    tooManyRequests: 'Too many attempts. Try again in a minute.',
    fileTooLargeMax: fileTooLarge,
    fileTooLarge: fileTooLarge(ID_FILE_MAX_BYTES),
    fileInvalid: 'Please select a valid file',
    fileTypeRefused: 'This file type is not accepted.',
    loginSuccess: 'Signed in.',
    badCredentials: 'Wrong credentials.',
    accountDisabled: 'Access denied.',
    loggedOut: 'Signed out',
  },
  validation: {
    tooLong: (max) => `This field must not be longer than ${max} characters.`,
    tooBig: (max) => `The value must not be more than ${max}.`,
    required: 'This field is required.',
    tooShort: (min) => `This field must be at least ${min} characters long.`,
    tooSmall: (min) => `The value must be at least ${min}.`,
    idInvalid: 'Invalid identifier.',
    emailInvalid: 'Please enter a valid e-mail address.',
    dateInvalid: 'Invalid date.',
    formatInvalid: 'Invalid format.',
    valueRefused: 'This value is not accepted.',
    countryInvalid: 'Please choose a country from the list.',
    phoneInvalid:
      'Please enter a valid phone number, for example 07 07 07 07 07 or, abroad, +33 6 12 34 56 78.',
    controlChars: 'This field cannot contain a line break or a control character.',
    controlCharsInText: 'This text cannot contain a control character (a tab, for instance).',
  },
  login: {
    emailRequired: 'The e-mail address is required.',
    emailInvalid: 'Please enter a valid e-mail address.',
    passwordRequired: 'The password is required.',
    badCredentials: 'Wrong credentials.',
  },
  visitor: {
    fields: visitorFields,
    required: (field) => required(visitorFields[field]),
    emailInvalid: 'Please enter a valid e-mail address.',
    fileTooLarge: fileTooLarge(ID_FILE_MAX_BYTES),
    fileInvalid: 'Please select a valid file',
    fileTypeRefused: 'The document must be a JPEG, PNG or WebP image, or a PDF.',
    dateMissing: 'Date not selected',
    dateInvalid: 'Invalid Date',
    datePast: 'The visit date cannot be in the past.',
    hourMissing: 'Please choose the hour.',
    minuteMissing: 'Please choose the minutes.',
    tooLong: 'The request is malformed.',
    privacyRequired: 'Please accept the privacy notice.',
    visitorCreated: 'Visitor created successfully.',
    requestCreated: 'Request created successfully.',
  },
  request: {
    created: 'Request created successfully.',
    confirmed: 'Request confirmed.',
    alreadyRequested: 'A request already exists for this visitor.',
    visitorDeleted: 'Visitor deleted.',
    hostUnknown: 'This host is not a member of the company.',
    declined: 'Request cancelled.',
    alreadyDeclined: 'This request has already been cancelled.',
    alreadyConfirmed: 'This request has already been confirmed.',
    declinedByStaff: 'Request cancelled. The visitor is told by e-mail.',
  },
  decision: {
    invalid: 'This link is not valid.',
    expired: 'This link has expired: the meeting day is over.',
    confirmed: 'Meeting confirmed. The visitor gets their code by e-mail.',
    declined: 'Meeting declined. The visitor is told by e-mail.',
    alreadyDecided: 'This request has already been answered.',
  },
  mailPreferences: {
    saved: 'Settings saved.',
  },
  company: {
    fields: companyFields,
    required: (field) => required(companyFields[field]),
    emailInvalid: 'Please enter a valid e-mail address.',
    employeeRangeInvalid: 'Please choose a range for the number of employees.',
    arrivalEarlyInvalid: `Early arrivals are counted in minutes, from 0 to ${ARRIVAL_EARLY_MAX_MINUTES}.`,
    kioskEmailInvalid: 'E-mail presence is either on or off: “true” or “false”.',
    dayEndInvalid: 'The end of day is a time HH:MM, from 00:00 to 23:59.',
    slugStable: "A company's slug does not change: its links and printed QR codes depend on it.",
    defaultCompany: 'The default company cannot be deleted.',
    created: 'Company created successfully.',
    updated: 'Company updated successfully.',
    deleted: 'Company deleted successfully.',
    notEmpty: (name, holdings) =>
      `The company “${name}” cannot be deleted: it still holds ${holdings.join(', ')}. Delete them first.`,
    holdings: {
      users: (n) => plural(n, 'user', 'users'),
      visitors: (n) => plural(n, 'visitor', 'visitors'),
      events: (n) => plural(n, 'event', 'events'),
      qrUsers: (n) => plural(n, 'QR code or member card', 'QR codes or member cards'),
      some: 'data',
    },
  },
  event: {
    fields: eventFields,
    required: (field) => required(eventFields[field]),
    dateInvalid: 'Invalid Date',
    timeInvalid: 'Please choose a valid time (HH:MM).',
    datePast: "The event's date has already passed: choose today or a later date.",
    created: 'Event created successfully!',
    added: 'Event added',
    found: 'Event found',
    createFailed: 'Error while creating the event.',
    networkError: 'Network error or server unreachable.',
    loadFailed: 'Error while loading the data.',
    listFailed: 'Error while loading the events.',
    deleteFailed: 'Error deleting event',
    mustBeLoggedIn: 'You must be signed in',
    deleted: 'Event deleted.',
    closedNow: 'Registrations for this event are now closed.',
    hasParticipants: (name, count) =>
      `The event “${name}” cannot be deleted: ${count} participant${count > 1 ? 's are' : ' is'} registered. Close it instead.`,
    registrationClosed: 'Registrations for this event are closed.',
    eventOver: 'This event is over: registrations are closed.',
    alreadyRegistered: 'You are already registered for this event with this e-mail address.',
    clientLimit: 'Too many registrations for this event from this device. Try again in an hour.',
    recipientLimit:
      'This e-mail address has received too many registrations today. Try again tomorrow or contact the organiser.',
    registered: 'Your QR code has been sent by e-mail. Thank you',
  },
  user: {
    fields: userFields,
    required: (field) => required(userFields[field]),
    emailInvalid: 'Please enter a valid e-mail address.',
    passwordTooShort: `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
    passwordWeak:
      'This password is too common or too easy to guess: choose a longer one, made of unrelated words.',
    companyInvalid: 'The chosen company does not exist.',
    roleInvalid: 'This role does not exist.',
    emailTaken: 'An account with this e-mail already exists for this company.',
    roleNotAssignable: 'You do not have permission to assign this role.',
    userProtected: 'You do not have permission to change this user.',
    lastAdmin: 'The last administrator can be neither deleted, nor deactivated, nor demoted.',
    created: 'The user was created successfully.',
    updated: 'User updated successfully.',
    deleted: 'User deleted successfully.',
  },
  account: {
    fields: accountFields,
    required: (field) => required(accountFields[field]),
    passwordMismatch: 'The two passwords do not match.',
    passwordUnchanged: 'The new password must differ from the current one.',
    currentPasswordWrong: 'The current password is wrong.',
    passwordChanged: 'Password changed.',
  },
  qrUser: {
    fields: qrUserFields,
    required: (field) => required(qrUserFields[field]),
    emailInvalid: 'Please enter a valid e-mail address.',
    typeInvalid: 'The only QR code type is “permanent”.',
    dateInvalid: 'Invalid Date',
    dateExpPast: 'The expiry date has passed: choose today or a later day.',
    companyInvalid: 'The chosen company does not exist.',
    nothingToUpdate: 'The request is malformed.',
    alreadyReplaced: 'This card has already been replaced by a new one.',
    qrCreated: 'QR code created successfully.',
    memberCreated: 'Card created successfully.',
    updated: 'QR User updated successfully.',
    reissued: 'New card issued: the old code is disabled.',
  },
  check: {
    checkedIn: (name) => `Arrival recorded: ${name}.`,
    checkedOut: (name) => `Departure recorded: ${name}.`,
    alreadyIn: (name, time) => `${name} already arrived at ${time}.`,
    alreadyOut: (name, time) => `${name} already left at ${time}.`,
    unknownCode: 'Unknown QR Code.',
    notConfirmed: "This visitor's request is not confirmed yet.",
    meetingDayOver: 'This QR Code is no longer valid: the date of the meeting has passed.',
    eventOver: 'This QR Code is no longer valid: the event is over.',
    meetingNotYet: (date) => `This QR Code is not valid yet: the meeting is planned on ${date}.`,
    eventNotYet: (date) => `This QR Code is not valid yet: the event takes place on ${date}.`,
    expired: (date) => `This QR Code expired on ${date}.`,
    replaced: 'This QR Code has been replaced by a new card.',
    unknownEmail: 'No QR Code of this company matches this e-mail address.',
    kioskEmailOff: 'E-mail presence is not turned on for this company.',
  },
  undo: {
    reasonRequired: 'Say why this check is undone.',
    tooLate: `This check can no longer be undone: it is more than ${UNDO_WINDOW_MINUTES} minutes old.`,
    notLatest: "Only a person's latest check can be undone.",
    alreadyUndone: 'This check is already undone.',
    arrivalUndone: (name) => `Arrival undone: ${name}.`,
    departureUndone: (name) => `Departure undone: ${name}.`,
  },
  mail: {
    resent: 'The mail will be sent again in a moment.',
    nothingToResend: 'There is no mail to send again for this person.',
  },
  availability: {
    databaseUnavailable:
      'Service temporarily unavailable (database unreachable). Try again in a moment.',
    idempotencyKeyInvalid:
      'The Idempotency-Key header must be 8 to 100 characters long (letters, digits, dashes).',
    idempotencyKeyReused: 'This idempotency key was already used for another request.',
  },
  privacy: {
    retentionSaved: 'The privacy settings have been saved.',
    erased: "This person's data has been erased.",
    exportFileName: 'sesame-personal-data',
    noticeRequired: 'Please accept the privacy notice.',
    daysInvalid: 'Invalid number of days.',
    daysTooFew: 'At least 1 day.',
    daysTooMany: (max) => `At most ${max} days.`,
    auditTooShort: (min) =>
      `The audit log is kept for at least ${min} days: the minimum set by the operator.`,
    retentionSavedShortened: (delay) =>
      `The privacy settings have been saved. A shortened period will apply only in ${delay} days.`,
  },
  audit: {
    originInvalid:
      'Unknown origin: choose "platform" (the Sésame platform) or "company" (the company).',
  },
  rollCall: {
    alreadyRunning: 'An evacuation roll call is already under way.',
    ended: 'This evacuation roll call is over.',
    statusUnknown: 'Unknown status.',
  },
  live: {
    eventStreamOnly: 'This stream is read as text/event-stream.',
    tooManyStreams: 'Too many open streams.',
  },
  csv: {
    visitorLog: {
      fileName: 'check-in-list',
      header: [
        'First name',
        'Last name',
        'Email',
        'Code',
        'Company',
        'Arrival',
        'Departure',
        'Arrival method',
        'Departure method',
        'Arrival recorded by',
        'Departure recorded by',
        'Undone',
      ],
      methods: {
        scan: 'QR scan',
        manual: 'Typed code',
        kiosk: 'Kiosk',
        automatic: 'Automatic',
      },
      arrivalUndone: (by, reason) => `Arrival undone${by ? ` by ${by}` : ''}: ${reason}`,
      departureUndone: (at, by, reason) =>
        `Departure of ${at} undone${by ? ` by ${by}` : ''}: ${reason}`,
    },
    participants: {
      unnamedEvent: 'event',
      header: [
        'First name',
        'Last name',
        'Email',
        'Contact',
        'Employer',
        'Registered',
        'Arrival',
        'Departure',
      ],
    },
    audit: {
      fileName: 'audit-log',
      header: [
        'Date (UTC)',
        'Company',
        'Actor',
        'Origin',
        'Action',
        'Subject',
        'Identifier',
        'Detail',
      ],
      system: 'System',
      platform: 'Sésame platform',
    },
  },
};
