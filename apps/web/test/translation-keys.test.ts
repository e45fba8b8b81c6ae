/**
 * Every key the screens translate exists in the French catalogue (issue 36): a typo in a
 * `t('…')` fails here, in `npm test`, rather than showing the key on a screen. The French
 * catalogue is the reference (test/locales.test.ts keeps English with the same keys).
 *
 * Each call of a `t` is read with TypeScript's parser (no type checking) in apps/web/src:
 * - which `t`: the one a `useTranslation(…)` gave in the enclosing scope (`const { t } =`
 *   or `{ t: tLoop }`), with its namespaces in order, as lib/i18n.ts looks them up (no
 *   implicit `common`: a hook on 'kiosk' does not find a bare 'close'); `useTranslation()`
 *   is `common`, and so is `i18n.t`. A `t` handed over as a parameter (a lib's
 *   `t: TFunction`) is the caller's: its key may be in any namespace of its feature folder
 *   (any namespace at all outside the features). `ns:key` and `{ ns: '…' }` name theirs.
 * - which key: a literal (`'a.b'`, either branch of `cond ? 'a' : 'b'`, a list of keys of
 *   which one at least must exist) must be found as lib/translator.ts finds it — nested,
 *   a dot inside a key, its plural forms (`_one`, `_other`), an object for `returnObjects`;
 *   a template literal is checked by its static start: `fields.${name}` needs an object at
 *   `fields`, `outcome.status${n}` a key of `outcome` starting with `status`. A template
 *   that starts with a value (`${page}.title`) must be listed in DYNAMIC below with the
 *   values it takes, each then checked the same way.
 * Keys held in variables (`t(label)`) are not checked: their literals are not `t` calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { Translator, type Words } from '../src/lib/translator';

const SRC = path.resolve(import.meta.dirname, '../src');
const FRENCH = path.join(SRC, 'locales/fr');

/**
 * Templates that start with a value: per file, the expression of the first `${…}` → the
 * values it can take (read from the code named in the comment). `null`: checked elsewhere.
 */
const DYNAMIC: Record<string, Record<string, readonly string[] | null>> = {
  // BlockedPage's `page` prop.
  'components/NotFoundPage.tsx': { page: ['notFound', 'forbidden'] },
  // `mode === 'qr' ? 'createQr' : 'createMember'`.
  'features/qr-users/components/CardForm.tsx': { ns: ['createQr', 'createMember'] },
  // KINDS[mode].texts.
  'features/qr-users/pages/CreateCardPage.tsx': { texts: ['createQr', 'createMember'] },
  // UserForm's `mode` prop.
  'features/users/components/UserForm.tsx': { 'props.mode': ['create', 'edit'] },
  // counts(…, 'rollCall' | 'counts', t).
  'features/audit/lib/sentence.ts': { words: ['rollCall', 'counts'] },
  // A shared schema's issue keys under the screen's `keys`: test/locale-messages.test.ts
  // reads every schema's issues in every screen's namespace.
  'lib/schema-errors.ts': { errors: null, fields: null },
  // statusSentence(t, 'status' | 'expiry.status', …): companies, users, qrUsers.
  'lib/failure.ts': { prefix: ['status', 'expiry.status'] },
};

const namespaces = readdirSync(FRENCH)
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.replace(/\.json$/, ''));
const french = new Translator({
  language: 'fr',
  fallbackLanguage: 'fr',
  defaultNamespace: 'common',
  load: () => Promise.reject(new Error('every namespace is given')),
});
for (const ns of namespaces)
  french.add('fr', ns, JSON.parse(readFileSync(path.join(FRENCH, `${ns}.json`), 'utf8')) as Words);

const MISSING = '\u0000missing';
/** As a screen's `t` would find it: bare, or by a plural form; text or object. */
function found(key: string, searched: readonly string[]): unknown {
  const t = french.fixedT(searched);
  for (const count of [undefined, 1, 2]) {
    const value = t(key, { defaultValue: MISSING, returnObjects: true, count });
    if (value !== MISSING) return value;
  }
  return undefined;
}

/** `ns:path` → its namespace and path; else the namespaces given. */
function split(key: string, searched: readonly string[]): [readonly string[], string] {
  const colon = key.indexOf(':');
  return colon > 0 ? [[key.slice(0, colon)], key.slice(colon + 1)] : [searched, key];
}

/** A template's static start `head` (before its first value, with a dot): some key begins so. */
function prefixFound(head: string, searched: readonly string[]): boolean {
  const [within, start] = split(head, searched);
  const dot = start.lastIndexOf('.');
  if (dot < 0) return false;
  const begins = start.slice(dot + 1);
  return within.some((ns) => {
    const parent = found(start.slice(0, dot), [ns]);
    return (
      !!parent &&
      typeof parent === 'object' &&
      Object.keys(parent).some((key) => key.startsWith(begins))
    );
  });
}

interface Call {
  where: string;
  file: string;
  /** The namespaces searched, or undefined: the caller's (a `t` parameter). */
  searched: readonly string[] | undefined;
  key: ts.Expression;
  options: ts.Expression | undefined;
}

const relative = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The namespaces a `useTranslation(…)` call reads, or undefined when they are computed. */
function hookNamespaces(call: ts.CallExpression): readonly string[] | undefined {
  const first = call.arguments[0];
  if (!first) return ['common'];
  if (ts.isStringLiteralLike(first)) return [first.text];
  if (ts.isArrayLiteralExpression(first) && first.elements.every(ts.isStringLiteralLike))
    return first.elements.map((element) => (element as ts.StringLiteralLike).text);
  return undefined;
}

const isUseTranslation = (node: ts.Expression | undefined): node is ts.CallExpression =>
  !!node &&
  ts.isCallExpression(node) &&
  ts.isIdentifier(node.expression) &&
  node.expression.text === 'useTranslation';

type Binding =
  | { kind: 'hook'; searched: readonly string[] | undefined }
  | { kind: 'translator' }
  | { kind: 'parameter' }
  | { kind: 'other' };

/** What `name` is where `at` uses it: the nearest declaration up the scopes. */
function bindingOf(name: string, at: ts.Node): Binding | undefined {
  for (let scope: ts.Node | undefined = at.parent; scope; scope = scope.parent) {
    if (ts.isFunctionLike(scope)) {
      for (const parameter of scope.parameters) {
        if (ts.isIdentifier(parameter.name) && parameter.name.text === name)
          return { kind: 'parameter' };
        if (
          ts.isObjectBindingPattern(parameter.name) &&
          parameter.name.elements.some((e) => ts.isIdentifier(e.name) && e.name.text === name)
        )
          return { kind: 'parameter' };
      }
    }
    const statements =
      ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isCaseClause(scope)
        ? scope.statements
        : undefined;
    for (const statement of statements ?? []) {
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
        if (clause?.name?.text === name)
          return specifier.endsWith('/lib/i18n') || specifier === './i18n'
            ? { kind: 'translator' }
            : { kind: 'other' };
        continue;
      }
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.name.text === name)
          return { kind: 'other' };
        if (!ts.isObjectBindingPattern(declaration.name)) continue;
        const element = declaration.name.elements.find(
          (e) => ts.isIdentifier(e.name) && e.name.text === name,
        );
        if (!element) continue;
        if (!isUseTranslation(declaration.initializer)) return { kind: 'other' };
        const property = element.propertyName?.getText() ?? name;
        if (property === 'i18n') return { kind: 'translator' };
        if (property !== 't') return { kind: 'other' };
        return { kind: 'hook', searched: hookNamespaces(declaration.initializer) };
      }
    }
  }
  return undefined;
}

/** Every `t(…)` of the web app with the namespaces it searches. */
function calls(): Call[] {
  const found: Call[] = [];
  for (const file of sourceFiles(SRC)) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && node.arguments[0]) {
        const callee = node.expression;
        let searched: readonly string[] | undefined | false = false;
        if (ts.isIdentifier(callee)) {
          const binding = bindingOf(callee.text, node);
          if (binding?.kind === 'hook') searched = binding.searched;
          else if (binding?.kind === 'parameter' && callee.text === 't') searched = undefined;
        } else if (
          ts.isPropertyAccessExpression(callee) &&
          callee.name.text === 't' &&
          ts.isIdentifier(callee.expression) &&
          bindingOf(callee.expression.text, node)?.kind === 'translator'
        ) {
          searched = ['common'];
        }
        if (searched !== false) {
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          found.push({
            where: `${relative(file)}:${line}`,
            file: relative(file),
            searched,
            key: node.arguments[0],
            options: node.arguments[1],
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The namespaces a `t` parameter's caller may read: those of its feature, or all. */
const featureNamespaces = (() => {
  const cache = new Map<string, readonly string[]>();
  return (file: string, all: readonly Call[]): readonly string[] => {
    const feature = /^features\/[^/]+\//.exec(file)?.[0];
    if (!feature) return namespaces;
    let list = cache.get(feature);
    if (!list) {
      const used = all
        .filter((call) => call.file.startsWith(feature) && call.searched)
        .flatMap((call) => call.searched!);
      list = [...new Set(['common', ...used])];
      cache.set(feature, list);
    }
    return list;
  };
})();

/** The `ns` option, when the call names its namespace so. */
function optionNamespace(options: ts.Expression | undefined): string | undefined {
  if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const property of options.properties) {
    if (
      ts.isPropertyAssignment(property) &&
      property.name.getText() === 'ns' &&
      ts.isStringLiteralLike(property.initializer)
    )
      return property.initializer.text;
  }
  return undefined;
}

interface Problem {
  where: string;
  key: string;
}

function check(all: Call[]): { problems: Problem[]; checked: number; dynamicUsed: Set<string> } {
  const problems: Problem[] = [];
  const dynamicUsed = new Set<string>();
  let checked = 0;
  for (const call of all) {
    const named = optionNamespace(call.options);
    const searched = named ? [named] : (call.searched ?? featureNamespaces(call.file, all));
    const literal = (key: string) => {
      checked++;
      const [within, keyPath] = split(key, searched);
      return found(keyPath, within) !== undefined;
    };
    const template = (head: string, rest: readonly ts.TemplateSpan[], text: string): boolean => {
      checked++;
      if (split(head, searched)[1].includes('.')) return prefixFound(head, searched);
      // Starts with a value: the values DYNAMIC gives it, each checked as a key or a template.
      const first = rest[0]!;
      const expression = first.expression.getText();
      const values = DYNAMIC[call.file]?.[expression];
      if (values === null) {
        dynamicUsed.add(`${call.file} ${expression}`);
        return true;
      }
      if (!values) {
        problems.push({
          where: call.where,
          key: `${text} (starts with a value: list it in DYNAMIC)`,
        });
        return true;
      }
      dynamicUsed.add(`${call.file} ${expression}`);
      return values.every((value) => {
        const expanded = head + value + first.literal.text;
        return rest.length === 1 ? literal(expanded) : prefixFound(expanded, searched);
      });
    };
    /** Whether `node` (a key, a choice of keys) names keys that exist. */
    const exists = (node: ts.Expression): boolean | 'unchecked' => {
      if (ts.isParenthesizedExpression(node)) return exists(node.expression);
      if (ts.isStringLiteralLike(node)) return literal(node.text);
      if (ts.isTemplateExpression(node))
        return template(node.head.text, node.templateSpans, node.getText());
      if (ts.isConditionalExpression(node)) {
        const both = [exists(node.whenTrue), exists(node.whenFalse)];
        return both.every((answer) => answer !== false);
      }
      if (ts.isArrayLiteralExpression(node)) {
        const each = node.elements.map((element) => exists(element as ts.Expression));
        return each.some((answer) => answer !== false);
      }
      return 'unchecked';
    };
    if (exists(call.key) === false) problems.push({ where: call.where, key: call.key.getText() });
  }
  return { problems, checked, dynamicUsed };
}

describe('translation keys (issue 36)', () => {
  const all = calls();
  const { problems, checked, dynamicUsed } = check(all);

  it('reads the screens’ calls, nearly all with their hook’s namespaces', () => {
    // Sanity: the walk finds the app's calls (about two thousand), and knows where most
    // of them look (a `t` parameter's calls are checked more loosely).
    expect(all.length).toBeGreaterThan(1500);
    expect(checked).toBeGreaterThan(1500);
    expect(all.filter((call) => call.searched).length / all.length).toBeGreaterThan(0.9);
  });

  it('finds every key in the French catalogue', () => {
    expect(problems.map(({ where, key }) => `${where} ${key}`)).toEqual([]);
  });

  it('lists no template in DYNAMIC that the code no longer has', () => {
    const listed = Object.entries(DYNAMIC).flatMap(([file, entries]) =>
      Object.keys(entries).map((expression) => `${file} ${expression}`),
    );
    expect(listed.filter((entry) => !dynamicUsed.has(entry))).toEqual([]);
  });

  it('catches a typo, a key of another namespace, a wrong prefix', () => {
    const source = ts.createSourceFile(
      'features/kiosk/Fake.tsx',
      `function A() {
  const { t } = useTranslation('kiosk');
  return [t('welcome.title'), t('welcome.titel'), t('close'), t('common:close'),
    t(\`expected.\${x}\`), t(\`expectd.\${x}\`), t(ok ? 'back' : 'bak'),
    t('pendingScans', { count: 2 }), t('close', { ns: 'common' }), t('hide', { ns: 'common' })];
}`,
      ts.ScriptTarget.Latest,
      true,
    );
    const fake: Call[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const binding = bindingOf(node.expression.text, node);
        if (binding?.kind === 'hook')
          fake.push({
            where: `Fake.tsx:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`,
            file: 'features/kiosk/Fake.tsx',
            searched: binding.searched,
            key: node.arguments[0]!,
            options: node.arguments[1],
          });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(check(fake).problems.map(({ where, key }) => `${where} ${key}`)).toEqual([
      "Fake.tsx:3 'welcome.titel'",
      "Fake.tsx:3 'close'",
      'Fake.tsx:4 `expectd.${x}`',
      "Fake.tsx:4 ok ? 'back' : 'bak'",
      "Fake.tsx:5 'hide'",
    ]);
  });
});
