/**
 * The interface's words: namespaces of nested keys per language, looked up with
 * `{{value}}` interpolation and plural keys (`key_one`, `key_other`, chosen by
 * Intl.PluralRules). It replaces i18next (issue 19): i18next and react-i18next cost every
 * page 16 KB of the 150 KB budget, for the little Sésame uses of them, which is all here.
 *
 * What it keeps of their behaviour, because the screens rely on it:
 * - a key names its namespace as `ns:key`, or through `{ ns }`, or the hook's namespaces
 *   (tried in order), or the default one;
 * - a key missing in the language is looked up in the fallback language, then shows
 *   `defaultValue`, then the key itself (never nothing);
 * - `returnObjects` gives an object or a list as it is stored;
 * - a language switch loads every namespace used so far in the new language before it
 *   changes anything on screen, so no key ever shows in place of a word.
 *
 * Pure: no DOM, no storage. lib/i18n.ts makes the app's one translator.
 */
export type Words = { [key: string]: unknown };

export interface TOptions {
  ns?: string;
  count?: number;
  defaultValue?: string;
  returnObjects?: boolean;
  [value: string]: unknown;
}

/** A key, or keys tried in order (the first found is shown). */
export type Key = string | readonly string[];

export interface TFunction {
  (key: Key, options: TOptions & { returnObjects: true }): unknown;
  (key: Key, options?: TOptions): string;
}

export interface TranslatorOptions {
  language: string;
  fallbackLanguage: string;
  defaultNamespace: string;
  /** Brings one namespace in one language (the words already here are never asked for). */
  load: (language: string, namespace: string) => Promise<Words>;
}

const INTERPOLATION = /\{\{\s*([\w.]+)\s*\}\}/g;

export class Translator {
  language: string;
  readonly defaultNamespace: string;
  private readonly fallbackLanguage: string;
  private readonly load: TranslatorOptions['load'];
  private readonly words = new Map<string, Words>();
  /** Namespaces asked for so far: a language switch brings them all. */
  private readonly used = new Set<string>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly listeners = new Set<() => void>();
  private readonly plurals = new Map<string, Intl.PluralRules>();

  constructor(options: TranslatorOptions) {
    this.language = options.language;
    this.fallbackLanguage = options.fallbackLanguage;
    this.defaultNamespace = options.defaultNamespace;
    this.load = options.load;
    this.used.add(options.defaultNamespace);
  }

  /** Words already at hand (the bundled French public namespaces). */
  add(language: string, namespace: string, words: Words) {
    this.words.set(`${language}/${namespace}`, words);
    this.used.add(namespace);
  }

  has(language: string, namespace: string): boolean {
    return this.words.has(`${language}/${namespace}`);
  }

  /**
   * Undefined when every namespace is there in `language`; otherwise one promise per
   * missing set, the same each time it is asked for (React's `use` needs that).
   */
  ensure(namespaces: readonly string[], language = this.language): Promise<void> | undefined {
    for (const ns of namespaces) this.used.add(ns);
    const missing = namespaces.filter((ns) => !this.has(language, ns));
    if (!missing.length) return undefined;
    const id = `${language}/${missing.join('+')}`;
    let pending = this.loading.get(id);
    if (!pending) {
      pending = Promise.all(
        missing.map(async (ns) => this.add(language, ns, await this.load(language, ns))),
      ).then(
        () => undefined,
        (error: unknown) => {
          // A failed download is asked again next time rather than remembered.
          this.loading.delete(id);
          throw error;
        },
      );
      this.loading.set(id, pending);
    }
    return pending;
  }

  /** Switches once every namespace used so far is there in `language`. */
  async changeLanguage(language: string): Promise<void> {
    await this.ensure([...this.used], language);
    if (language === this.language) return;
    this.language = language;
    for (const listener of this.listeners) listener();
  }

  /** Called after each language switch; returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A `t` reading `namespaces` in order (the default namespace when none). */
  fixedT(namespaces: readonly string[] = [this.defaultNamespace]): TFunction {
    return ((key: Key, options?: TOptions) =>
      this.translate(key, namespaces, options)) as TFunction;
  }

  /** `t` over the default namespace, for code outside a component. */
  t: TFunction = ((key: Key, options?: TOptions) =>
    this.translate(key, [this.defaultNamespace], options)) as TFunction;

  private translate(keys: Key, namespaces: readonly string[], options: TOptions = {}) {
    let found: unknown;
    let shownKey = '';
    for (const key of typeof keys === 'string' ? [keys] : keys) {
      let path = key;
      let searched = options.ns ? [options.ns] : namespaces;
      const colon = key.indexOf(':');
      if (colon > 0) {
        searched = [key.slice(0, colon)];
        path = key.slice(colon + 1);
      }
      shownKey ||= path;
      found = this.find(path, searched, options.count);
      if (found !== undefined) break;
    }
    if (found === undefined) return options.defaultValue ?? shownKey;
    if (typeof found !== 'string') return options.returnObjects ? found : shownKey;
    return found.replace(INTERPOLATION, (whole, name: string) => {
      const value = options[name];
      return value === undefined || value === null ? whole : String(value);
    });
  }

  /** The stored value: plural form, `_other`, then the bare key; language, then fallback. */
  private find(path: string, namespaces: readonly string[], count: number | undefined) {
    const languages = [this.language, this.fallbackLanguage];
    for (const language of languages) {
      // A form the catalogue does not write falls back to `_other` (French's `many`, for an
      // exact million, would otherwise show the key).
      const candidates =
        typeof count === 'number'
          ? [`${path}_${this.pluralOf(language).select(count)}`, `${path}_other`, path]
          : [path];
      for (const ns of namespaces) {
        const words = this.words.get(`${language}/${ns}`);
        if (!words) continue;
        for (const candidate of candidates) {
          const value = lookup(words, candidate);
          if (value !== undefined) return value;
        }
      }
    }
    return undefined;
  }

  private pluralOf(language: string): Intl.PluralRules {
    let rules = this.plurals.get(language);
    if (!rules) {
      rules = new Intl.PluralRules(language);
      this.plurals.set(language, rules);
    }
    return rules;
  }
}

/**
 * `a.b.c` in nested words. A key may hold a dot itself (`audit.actions` has
 * `document.viewed`): at each level the next part is tried alone, then joined to the ones
 * after it.
 */
function lookup(words: unknown, path: string): unknown {
  return find(words, path.split('.'));
}

function find(node: unknown, parts: readonly string[]): unknown {
  if (!parts.length) return node;
  if (node === null || typeof node !== 'object') return undefined;
  for (let take = 1; take <= parts.length; take++) {
    const key = parts.slice(0, take).join('.');
    if (!Object.hasOwn(node, key)) continue;
    const found = find((node as Words)[key], parts.slice(take));
    if (found !== undefined) return found;
  }
  return undefined;
}
