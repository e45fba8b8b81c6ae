/** The identity document on the visitor form (issue 27): its type is checked before sending. */
import { describe, expect, it } from 'vitest';
import { ID_DOCUMENT_TYPES, issueParams, visitorFormSchema } from '../src';

const documentIssue = (file: { size: number; type?: string }) =>
  visitorFormSchema
    .safeParse({ request_image: file })
    .error?.issues.find((issue) => issue.path[0] === 'request_image');

describe('the identity document field', () => {
  it('refuses a type the server would refuse, with its own message and key', () => {
    const issue = documentIssue({ size: 1000, type: 'text/plain' });
    expect(issue?.message).toBe('La pièce doit être une image JPEG, PNG ou WebP, ou un PDF.');
    expect(issueParams(issue!)?.key).toBe('fileTypeRefused');
  });

  it('takes every accepted type, and a file whose type the browser cannot tell', () => {
    for (const type of [...ID_DOCUMENT_TYPES, '', undefined]) {
      expect(documentIssue({ size: 1000, type })).toBeUndefined();
    }
  });

  it('still says empty and too large first', () => {
    expect(issueParams(documentIssue({ size: 0, type: 'text/plain' })!)?.key).toBe('fileInvalid');
    expect(issueParams(documentIssue({ size: 3 * 1024 * 1024, type: 'image/png' })!)?.key).toBe(
      'fileTooLarge',
    );
  });
});
