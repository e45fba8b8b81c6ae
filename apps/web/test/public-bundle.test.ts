/**
 * The public pages stay light (issue 19, ARCHITECTURE §9: staff screens load on demand):
 * no public page's code reaches staff-only code through static imports, the imports
 * the bundler puts in the same download. Dynamic `import()` is where code may part.
 *
 * What a public page loads: the entry (main.tsx, with the route table) and the module
 * of each public route (an `element: lazyPage(() => import('./pages/X'))` or a component),
 * each with everything it imports statically. A route is public unless it is behind the
 * login guard (`element: <RequireAuth />`) or marked `handle: { staff: true }`, as
 * app/slugless-routes reads the same table.
 *
 * Staff-only:
 * - the page module of a staff route (unless a public route shows it too);
 * - every module of a feature folder none of whose routes is public (its route table
 *   apart: the table is the app's map, in the entry by design);
 * - the libraries a public page loads only when used: the confirmation modals, the
 *   calendars, the captures and PDFs, the camera's decoders, zod's full API (the
 *   schemas; a public form loads its own on demand, lib/use-schema-form), and the charts
 *   (@mantine/charts, recharts and their CSS: the dashboard's, issue 35, loaded there only
 *   when a chart is drawn — the last suite below).
 *
 * The graph is read with TypeScript's parser and module resolution (the web tsconfig);
 * `import type` is not code. `@sesame/shared` is followed name by name through its
 * barrel (it declares `sideEffects: false`, so the bundler keeps only what is used).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(import.meta.dirname, '..');
const SRC = path.join(WEB, 'src');
const ROOT = path.resolve(WEB, '../..');
const SHARED_INDEX = path.join(ROOT, 'packages/shared/src/index.ts');

/** Bare specifiers a public page must not import statically (see above). */
const ON_DEMAND_LIBRARIES = [
  '@mantine/modals',
  '@mantine/dates',
  'html-to-image',
  'jspdf',
  'jsqr',
  'barcode-detector',
  'zxing-wasm',
  'zod',
  // Issue 35: the dashboard's charts, and the charts' CSS.
  '@mantine/charts',
  'recharts',
];
/**
 * Known exceptions, each with its reason: a public route that may import an on-demand library.
 * The company creation form (spec §2, public) validates with its schemas, which live beside
 * constants the form shows (schemas/company.ts); it is not one of §9's budgeted pages.
 */
const ALLOWED: Record<string, string[]> = { ':domain/create-company': ['zod'] };

const isOnDemandLibrary = (specifier: string) =>
  ON_DEMAND_LIBRARIES.some((lib) => specifier === lib || specifier.startsWith(`${lib}/`)) &&
  // zod's config alone (lib/use-schema-form sets the product's words through it).
  !specifier.startsWith('zod/v4/core');

const compilerOptions = (() => {
  const configFile = path.join(WEB, 'tsconfig.json');
  const { config } = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file));
  return ts.parseJsonConfigFileContent(config, ts.sys, WEB).options;
})();

const sources = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = sources.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    sources.set(file, source);
  }
  return source;
}

/** The file a specifier names, if it is our code (apps/web, packages); else undefined. */
function resolve(specifier: string, from: string): string | undefined {
  const resolved = ts.resolveModuleName(specifier, from, compilerOptions, ts.sys).resolvedModule;
  const file = resolved?.resolvedFileName;
  if (!file || file.includes(`${path.sep}node_modules${path.sep}`) || file.endsWith('.d.ts'))
    return undefined;
  return path.resolve(file);
}

interface StaticImport {
  specifier: string;
  /** The names imported, or undefined for the whole module (`export *`, namespace, default). */
  names?: string[];
}

/** A module's static, value (not type-only) imports and re-exports. */
function staticImports(file: string): StaticImport[] {
  const found: StaticImport[] = [];
  for (const statement of parse(file).statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      let names: string[] | undefined;
      if (clause && !clause.name && bindings && ts.isNamedImports(bindings)) {
        names = bindings.elements
          .filter((element) => !element.isTypeOnly)
          .map((element) => (element.propertyName ?? element.name).text);
        if (names.length === 0) continue;
      }
      found.push({ specifier: statement.moduleSpecifier.text, names });
    } else if (
      ts.isExportDeclaration(statement) &&
      !statement.isTypeOnly &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause;
      const names =
        clause && ts.isNamedExports(clause)
          ? clause.elements
              .filter((element) => !element.isTypeOnly)
              .map((element) => (element.propertyName ?? element.name).text)
          : undefined;
      if (names?.length === 0) continue;
      found.push({ specifier: statement.moduleSpecifier.text, names });
    }
  }
  return found;
}

/** The module of a barrel (`export * from`) that declares `name`. */
function declaringModule(file: string, name: string, seen = new Set<string>()): string | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const source = parse(file);
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    const exported = modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (exported) {
      if (
        (ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isEnumDeclaration(statement)) &&
        statement.name?.text === name
      )
        return file;
      if (
        ts.isVariableStatement(statement) &&
        statement.declarationList.declarations.some(
          (d) => ts.isIdentifier(d.name) && d.name.text === name,
        )
      )
        return file;
    }
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      const target =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? resolve(statement.moduleSpecifier.text, file)
          : undefined;
      if (clause && ts.isNamedExports(clause)) {
        const element = clause.elements.find((e) => e.name.text === name);
        if (element) {
          const original = (element.propertyName ?? element.name).text;
          return target ? declaringModule(target, original, seen) : file;
        }
      } else if (!clause && target) {
        const inner = declaringModule(target, name, seen);
        if (inner) return inner;
      }
    }
  }
  return undefined;
}

interface Reached {
  /** Our modules, each with the module that imported it first (for the report). */
  modules: Map<string, string | null>;
  /** Bare specifiers imported, with the module importing them. */
  libraries: Map<string, string>;
}

/** Everything `start` reaches through static imports. */
function reach(start: string): Reached {
  const modules = new Map<string, string | null>([[start, null]]);
  const libraries = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    for (const { specifier, names } of staticImports(file)) {
      if (/\.(css|svg|png|json|wasm)(\?.*)?$|\?url$/.test(specifier)) continue;
      const target = resolve(specifier, file);
      if (!target) {
        if (!specifier.startsWith('.')) libraries.set(specifier, file);
        continue;
      }
      // The shared barrel: the modules that declare the names imported.
      const targets =
        target === SHARED_INDEX && names
          ? names.map((name) => declaringModule(SHARED_INDEX, name) ?? SHARED_INDEX)
          : [target];
      for (const next of targets) {
        if (modules.has(next)) continue;
        modules.set(next, file);
        queue.push(next);
      }
    }
  }
  return { modules, libraries };
}

const rel = (file: string) => path.relative(ROOT, file);

/** How `file` was reached: entry → … → file. */
function chain(reached: Reached, file: string): string {
  const steps: string[] = [];
  for (let at: string | null | undefined = file; at; at = reached.modules.get(at))
    steps.unshift(rel(at));
  return steps.join(' → ');
}

// ---- The route table: which modules the public routes show ----

interface RouteTarget {
  routeFile: string;
  path: string;
  module: string;
  staff: boolean;
  /** The page title's key (`handle.title`), when it is written out. */
  title?: string;
}

function property(node: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of node.properties)
    if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name)
      return p.initializer;
  return undefined;
}

function jsxTag(node: ts.Expression | undefined): string | undefined {
  if (node && ts.isJsxSelfClosingElement(node)) return node.tagName.getText();
  if (node && ts.isJsxElement(node)) return node.openingElement.tagName.getText();
  return undefined;
}

/** The routes each feature declares, read from its route table's source. */
function routeTargets(routeFile: string): RouteTarget[] {
  const source = parse(routeFile);
  const importOf = new Map<string, string>();
  const variables = new Map<string, ts.Expression>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const names = [
        clause?.name?.text,
        ...(clause?.namedBindings && ts.isNamedImports(clause.namedBindings)
          ? clause.namedBindings.elements.map((e) => e.name.text)
          : []),
      ];
      for (const name of names) if (name) importOf.set(name, statement.moduleSpecifier.text);
    }
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.initializer) variables.set(d.name.text, d.initializer);
  }
  const dynamicImportOf = (node: ts.Node): string | undefined => {
    let found: string | undefined;
    const visit = (n: ts.Node) => {
      if (
        ts.isCallExpression(n) &&
        n.expression.kind === ts.SyntaxKind.ImportKeyword &&
        n.arguments[0] &&
        ts.isStringLiteral(n.arguments[0])
      )
        found = n.arguments[0].text;
      else if (ts.isIdentifier(n) && variables.has(n.text)) visit(variables.get(n.text)!);
      else ts.forEachChild(n, visit);
    };
    visit(node);
    return found;
  };
  const targets: RouteTarget[] = [];
  const visit = (node: ts.Node, guarded: boolean) => {
    if (ts.isObjectLiteralExpression(node) && (property(node, 'path') || property(node, 'index'))) {
      const pathNode = property(node, 'path');
      const routePath = pathNode && ts.isStringLiteral(pathNode) ? pathNode.text : '(index)';
      const handle = property(node, 'handle');
      const staffHandle =
        !!handle &&
        ts.isObjectLiteralExpression(handle) &&
        property(handle, 'staff')?.kind === ts.SyntaxKind.TrueKeyword;
      const element = property(node, 'element');
      const tag = jsxTag(element);
      // A page loaded on demand (`lazyPage(() => import(…))`), else the component it shows.
      const specifier =
        (element && dynamicImportOf(element)) ?? (tag ? importOf.get(tag) : undefined);
      const module = specifier && resolve(specifier, routeFile);
      const title =
        handle && ts.isObjectLiteralExpression(handle) ? property(handle, 'title') : undefined;
      if (module)
        targets.push({
          routeFile,
          path: routePath,
          module,
          staff: guarded || staffHandle,
          title: title && ts.isStringLiteral(title) ? title.text : undefined,
        });
    }
    let guard = guarded;
    if (ts.isObjectLiteralExpression(node) && jsxTag(property(node, 'element')) === 'RequireAuth')
      guard = true;
    ts.forEachChild(node, (child) => visit(child, guard));
  };
  visit(source, false);
  return targets;
}

const FEATURES = path.join(SRC, 'features');
const routeFiles = readdirSync(FEATURES).flatMap((feature) =>
  readdirSync(path.join(FEATURES, feature))
    .filter((name) => /(^|-)routes\.tsx$/.test(name))
    .map((name) => path.join(FEATURES, feature, name)),
);
const targets = routeFiles.flatMap(routeTargets);
const publicTargets = targets.filter((t) => !t.staff);
const publicModules = new Set(publicTargets.map((t) => t.module));
const featureOf = (file: string) =>
  file.startsWith(FEATURES) ? path.relative(FEATURES, file).split(path.sep)[0] : undefined;
const publicFeatures = new Set(publicTargets.map((t) => featureOf(t.module)));

/** Why a module is staff-only, or undefined when it is not. */
function staffOnly(file: string): string | undefined {
  if (routeFiles.includes(file)) return undefined;
  const staffRoute = targets.find((t) => t.staff && t.module === file);
  if (staffRoute && !publicModules.has(file))
    return `the page of the staff route ${staffRoute.path}`;
  const feature = featureOf(file);
  if (feature && !publicFeatures.has(feature))
    return `in features/${feature}, which has no public route`;
  return undefined;
}

function violations(start: string, allowed: string[] = []): string[] {
  const reached = reach(start);
  const found: string[] = [];
  for (const file of reached.modules.keys()) {
    const why = staffOnly(file);
    if (why) found.push(`${chain(reached, file)} (${why})`);
  }
  for (const [specifier, importer] of reached.libraries)
    if (isOnDemandLibrary(specifier) && !allowed.some((lib) => specifier === lib))
      found.push(`${chain(reached, importer)} → ${specifier} (a library loaded on demand)`);
  return found;
}

describe('the public pages reach no staff-only code through static imports', () => {
  it('reads the route table: public and staff routes, each with its module', () => {
    expect(routeFiles.length).toBeGreaterThan(5);
    const paths = (list: RouteTarget[]) => list.map((t) => t.path);
    // The spec's public pages, and staff pages behind the guard, as sanity checks.
    expect(paths(publicTargets)).toEqual(
      expect.arrayContaining([
        'sign-in',
        ':domain',
        ':domain/meeting',
        'company/:domain/event/:slug',
        'success-checkout/:uidn',
        ':domain/request-meeting/:id',
      ]),
    );
    expect(paths(targets.filter((t) => t.staff))).toEqual(
      expect.arrayContaining([':domain/create-event', ':domain/list-events']),
    );
  });

  it('the entry (main.tsx and the route table) reaches none', () => {
    expect(violations(path.join(SRC, 'main.tsx'))).toEqual([]);
  });

  it.each(
    publicTargets.map((t) => [`${t.path} (${rel(t.module)})`, t.module, ALLOWED[t.path]] as const),
  )('%s reaches none', (_name, module, allowed) => {
    expect(violations(module, allowed)).toEqual([]);
  });

  it('would see a public page that imports a staff page or an on-demand library', () => {
    // The check itself: a staff route's page reaches what it is made of.
    const staffPage = targets.find((t) => t.staff && !publicModules.has(t.module))!;
    expect(staffOnly(staffPage.module)).toMatch(/staff route/);
    const createEvent = targets.find((t) => t.path === ':domain/create-event')!;
    const reached = reach(createEvent.module);
    expect([...reached.libraries.keys()].some(isOnDemandLibrary)).toBe(true);
  });
});

// ---- The words: a public page brings the French namespaces it shows ----

const LOCALES_FR = path.join(SRC, 'locales', 'fr');
const NAMESPACES = new Set(readdirSync(LOCALES_FR).map((name) => name.replace(/\.json$/, '')));

/**
 * The namespaces a module shows: `useTranslation('ns')` / `(['a', 'b'])`, `ns: 'x'`, and
 * keys written `ns:key` (a template's head counts: `common:validation.${key}`).
 */
function namespacesShown(file: string): Set<string> {
  const found = new Set<string>();
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'useTranslation'
    ) {
      const arg = node.arguments[0];
      const literals = arg && ts.isArrayLiteralExpression(arg) ? arg.elements : arg ? [arg] : [];
      for (const literal of literals) if (ts.isStringLiteral(literal)) found.add(literal.text);
    }
    if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === 'ns' &&
      ts.isStringLiteral(node.initializer)
    )
      found.add(node.initializer.text);
    const text =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? node.text
        : ts.isTemplateExpression(node)
          ? node.head.text
          : undefined;
    const prefix = text && /^([a-zA-Z]+):[\w.]/.exec(text)?.[1];
    if (prefix && NAMESPACES.has(prefix)) found.add(prefix);
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return found;
}

/** French namespace files a module imports statically (`…/locales/fr/<ns>.json`). */
function frenchWordsImported(file: string): string[] {
  return staticImports(file)
    .map(({ specifier }) => /locales\/fr\/(\w+)\.json$/.exec(specifier)?.[1])
    .filter((ns): ns is string => !!ns);
}

/**
 * For each namespace a page shows but its code does not bring: the module that shows it.
 * The route tables name every page's title; only the page's own title is shown.
 */
function missingWords(target: RouteTarget): string[] {
  const brought = new Set<string>();
  const shownBy = new Map<string, string>();
  const titleNs = target.title?.split(':')[0];
  if (titleNs && target.title?.includes(':')) shownBy.set(titleNs, rel(target.routeFile));
  for (const graph of [reach(path.join(SRC, 'main.tsx')), reach(target.module)])
    for (const file of graph.modules.keys()) {
      for (const ns of frenchWordsImported(file)) brought.add(ns);
      if (routeFiles.includes(file)) continue;
      for (const ns of namespacesShown(file)) if (!shownBy.has(ns)) shownBy.set(ns, file);
    }
  return [...shownBy]
    .filter(([ns]) => !brought.has(ns))
    .map(([ns, file]) => `${ns} (shown by ${rel(file)})`);
}

describe('a public page’s French words come with its code (lib/i18n withFrenchWords)', () => {
  it('reads the namespaces a module shows', () => {
    const visitorForm = path.join(SRC, 'components/visitor-form/VisitorForm.tsx');
    expect([...namespacesShown(visitorForm)]).toEqual(expect.arrayContaining(['visitors']));
    // The entry brings the layout's words.
    expect(frenchWordsImported(path.join(SRC, 'lib/i18n.ts'))).toEqual(['common']);
  });

  it.each(publicTargets.map((t) => [`${t.path} (${rel(t.module)})`, t] as const))(
    '%s brings every namespace it shows',
    (_name, target) => {
      expect(missingWords(target)).toEqual([]);
    },
  );
});

// ---- The charts: on the dashboard only, and there on demand (issue 35) ----

const CHART_LIBRARIES = ['@mantine/charts', 'recharts'];
const isChartLibrary = (specifier: string) =>
  CHART_LIBRARIES.some((lib) => specifier === lib || specifier.startsWith(`${lib}/`));
const CHARTS_MODULE = path.join(FEATURES, 'dashboard/components/DashboardCharts.tsx');

/** Every module of the web app (apps/web/src), tests' fixtures aside. */
function webModules(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return webModules(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The modules a file loads on demand: its `import('…')` calls that name our code. */
function dynamicImports(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const target = resolve(node.arguments[0].text, file);
      if (target) found.push(target);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return found;
}

describe('the charts load on the dashboard only, and there on demand', () => {
  const dashboard = targets.find((t) => t.path === ':domain/dashboard');

  it('one module imports @mantine/charts, recharts or the charts’ CSS: the dashboard’s charts', () => {
    const importers = webModules()
      .filter((file) => staticImports(file).some(({ specifier }) => isChartLibrary(specifier)))
      .map(rel);
    expect(importers).toEqual([rel(CHARTS_MODULE)]);
    const imported = staticImports(CHARTS_MODULE).map(({ specifier }) => specifier);
    expect(imported).toEqual(
      expect.arrayContaining(['@mantine/charts', '@mantine/charts/styles.css']),
    );
  });

  it('the dashboard is a staff route whose page reaches the charts only through import()', () => {
    expect(dashboard?.staff).toBe(true);
    const reached = reach(dashboard!.module);
    // The page's own code (its chunk and what it shares) carries no chart library…
    expect([...reached.libraries.keys()].filter(isChartLibrary)).toEqual([]);
    expect(reached.modules.has(CHARTS_MODULE)).toBe(false);
    // …and loads the charts' module on demand, from a module of its own graph.
    const loaders = [...reached.modules.keys()].filter((file) =>
      dynamicImports(file).includes(CHARTS_MODULE),
    );
    expect(loaders.map(rel)).toEqual([
      rel(path.join(FEATURES, 'dashboard/components/ChartSection.tsx')),
    ]);
    // The check itself: the charts' module does reach the libraries.
    expect([...reach(CHARTS_MODULE).libraries.keys()].filter(isChartLibrary).sort()).toEqual([
      '@mantine/charts',
    ]);
  });

  it('neither the entry nor any public page reaches a chart library', () => {
    const reachesCharts = (start: string) =>
      [...reach(start).libraries.keys()]
        .filter(isChartLibrary)
        .map((lib) => `${rel(start)} → ${lib}`);
    expect([
      ...reachesCharts(path.join(SRC, 'main.tsx')),
      ...publicTargets.flatMap((t) => reachesCharts(t.module)),
    ]).toEqual([]);
  });
});
