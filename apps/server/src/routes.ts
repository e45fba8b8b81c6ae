/**
 * Every /api route, one plugin per feature. Add a feature here and nowhere else.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth/routes';
import { siteRoutes } from './sites/routes';
import { companyRoutes } from './companies/routes';
import { fileRoutes } from './files/routes';
import { healthRoutes } from './health/routes';
import { qrUserRoutes } from './qr-users/routes';
import { userRoutes } from './users/routes';
import { visitorRoutes } from './visitors/routes';
import { requestRoutes } from './requests/routes';
import { eventRoutes } from './events/routes';
import { checkinRoutes } from './checkins/routes';
import { mailRoutes } from './mail/routes';
import { onSiteRoutes } from './on-site/routes';
import { rollCallRoutes } from './roll-calls/routes';
import { auditRoutes } from './audit/routes';
import { privacyRoutes } from './privacy/routes';
import { badgeRoutes } from './badges/routes';
import { kioskRoutes } from './kiosks/routes';
import { invitationRoutes } from './invitations/routes';
import { watchlistRoutes } from './watchlist/routes';
import { visitorTypeRoutes } from './visitor-types/routes';
import { documentRoutes } from './documents/routes';
import { signatureRoutes } from './documents/signature-routes';
import { ssoSettingsRoutes } from './sso/settings-routes';
import { ssoSignInRoutes } from './sso/sign-in-routes';
import { chatRoutes } from './chat/routes';

export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(companyRoutes);
  await app.register(siteRoutes);
  await app.register(fileRoutes);
  await app.register(qrUserRoutes);
  await app.register(userRoutes);
  await app.register(visitorRoutes);
  await app.register(requestRoutes);
  await app.register(eventRoutes);
  await app.register(checkinRoutes);
  await app.register(mailRoutes);
  await app.register(onSiteRoutes);
  await app.register(rollCallRoutes);
  await app.register(auditRoutes);
  await app.register(privacyRoutes);
  await app.register(badgeRoutes);
  await app.register(kioskRoutes);
  await app.register(invitationRoutes);
  await app.register(watchlistRoutes);
  await app.register(visitorTypeRoutes);
  await app.register(documentRoutes);
  await app.register(signatureRoutes);
  await app.register(ssoSettingsRoutes);
  await app.register(ssoSignInRoutes);
  await app.register(chatRoutes);
};
