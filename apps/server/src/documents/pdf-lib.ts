/**
 * pdf-lib, loaded by the first PDF drawn (a signature's, a badge's) rather than at start:
 * about 4 MB resident that an idle server does not hold (`npm run bench -- memory`).
 */
import { onFirstUse } from '../lazy-module';

export const pdfLib = onFirstUse(() => import('pdf-lib'));
