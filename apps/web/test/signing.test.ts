/** The signing step's pure parts (issue 31): the document's Markdown and the signatures sent. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { signatureInputSchema, signaturesFieldSchema } from '@sesame/shared';
import { DocumentText } from '../src/components/signing/DocumentText';
import { linksAsText, markdownBlocks, parseInline } from '../src/components/signing/markdown';
import {
  dataUrlBytes,
  documentsOfType,
  draftProblem,
  signatureOf,
  signaturesField,
} from '../src/components/signing/signatures';

const html = (source: string) => renderToStaticMarkup(createElement(DocumentText, { source }));

const DOC = { document_id: '3f1c1a52-6a4e-4a53-9a3a-0f7b7c1d2e3f', version: 2 };
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('the document text', () => {
  it('reads headings, paragraphs, lists, bold and italic', () => {
    const source = [
      '# Accord de confidentialité',
      '',
      'Le visiteur **s’engage** à ne *rien* divulguer,',
      'ni à _photographier_ les lieux.',
      '',
      '## Obligations',
      '- porter le badge',
      '* rester accompagné',
      '',
      '1. Lire',
      '2) Signer',
    ].join('\n');
    expect(markdownBlocks(source)).toEqual([
      { kind: 'heading', level: 1, inlines: [{ text: 'Accord de confidentialité' }] },
      {
        kind: 'paragraph',
        inlines: [
          { text: 'Le visiteur ' },
          { text: 's’engage', strong: true },
          { text: ' à ne ' },
          { text: 'rien', em: true },
          { text: ' divulguer, ni à ' },
          { text: 'photographier', em: true },
          { text: ' les lieux.' },
        ],
      },
      { kind: 'heading', level: 2, inlines: [{ text: 'Obligations' }] },
      {
        kind: 'list',
        ordered: false,
        items: [[{ text: 'porter le badge' }], [{ text: 'rester accompagné' }]],
      },
      { kind: 'list', ordered: true, items: [[{ text: 'Lire' }], [{ text: 'Signer' }]] },
    ]);
    expect(html(source)).toBe(
      '<div class="sesame-document-text"><h3>Accord de confidentialité</h3>' +
        '<p>Le visiteur <strong>s’engage</strong> à ne <em>rien</em> divulguer, ni à <em>photographier</em> les lieux.</p>' +
        '<h4>Obligations</h4><ul><li>porter le badge</li><li>rester accompagné</li></ul>' +
        '<ol><li>Lire</li><li>Signer</li></ol></div>',
    );
  });

  it('writes links as their text and address, never as a link', () => {
    expect(linksAsText('Voir [la charte](https://exemple.fr/charte).')).toBe(
      'Voir la charte (https://exemple.fr/charte).',
    );
    expect(linksAsText('[https://a.fr](https://a.fr)')).toBe('https://a.fr');
    expect(linksAsText('[javascript:](javascript:alert(1))')).not.toContain('<a');
    expect(html('Lire [ici](https://exemple.fr)')).toBe(
      '<div class="sesame-document-text"><p>Lire ici (https://exemple.fr)</p></div>',
    );
  });

  it('keeps snake_case words and lone stars as text', () => {
    expect(parseInline('id_number et 2 * 3 = 6')).toEqual([{ text: 'id_number et 2 * 3 = 6' }]);
  });

  it('refuses HTML: markup typed in a document reads as text', () => {
    const out = html(
      '<script>alert(1)</script>\n\n**<img src=x onerror=alert(1)>**\n\n- <a href="javascript:x">x</a>',
    );
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<a ');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('<strong>&lt;img src=x onerror=alert(1)&gt;</strong>');
    expect(out).toContain('<li>&lt;a href=&quot;javascript:x&quot;&gt;x&lt;/a&gt;</li>');
  });
});

describe('the signatures sent', () => {
  it('a drawn signature carries its PNG, a typed one its ticked box, and both pass the server schema', () => {
    const drawn = signatureOf(DOC, { method: 'drawn', name: '  Awa   Koné ', image: PNG });
    expect(drawn).toEqual({ ...DOC, signer_name: 'Awa Koné', method: 'drawn', image: PNG });
    const typed = signatureOf(DOC, { method: 'typed', name: 'Awa Koné', accepted: true });
    expect(typed).toEqual({ ...DOC, signer_name: 'Awa Koné', method: 'typed', accepted: true });
    expect(signatureInputSchema.safeParse(drawn).success).toBe(true);
    expect(signatureInputSchema.safeParse(typed).success).toBe(true);
    const field = signaturesField([drawn, typed]);
    expect(signaturesFieldSchema.parse(field)).toEqual([drawn, typed]);
    expect(signaturesField([])).toBe('');
  });

  it('says what is missing before anything is sent', () => {
    expect(draftProblem({ method: 'drawn', name: ' ', image: PNG })).toBe('nameRequired');
    expect(draftProblem({ method: 'drawn', name: 'Awa', image: null })).toBe('drawingMissing');
    expect(draftProblem({ method: 'typed', name: 'Awa', accepted: false })).toBe('notAccepted');
    expect(draftProblem({ method: 'typed', name: 'Awa', accepted: true })).toBeNull();
  });

  it('shows a type’s documents in the page’s language', () => {
    const type = {
      documents: [
        { ...DOC, title_fr: 'Règles', title_en: 'Rules', body_fr: 'Texte', body_en: 'Text' },
      ],
    };
    expect(documentsOfType(type, 'en')).toEqual([
      { ...DOC, language: 'en', title: 'Rules', body: 'Text' },
    ]);
    expect(documentsOfType(type, 'fr')[0]).toMatchObject({ language: 'fr', title: 'Règles' });
    expect(documentsOfType(null, 'fr')).toEqual([]);
  });

  it('measures a PNG data URL in bytes', () => {
    expect(dataUrlBytes(PNG)).toBe(Buffer.from(PNG.split(',')[1]!, 'base64').length);
  });
});
