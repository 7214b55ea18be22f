/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { PUBLIC_ROUTE_TITLES } from './src/i18n/groups';
import { componentImports } from './src/test/componentImports';

const require = createRequire(import.meta.url);
/** The unit test files that run in a worker of their own (why: `test.projects` below). */
const OWN_WORKER = ['src/budget.test.ts', 'src/test/preloadRequiredEsm.test.ts'];

/**
 * landing.html, the static landing page at `/`: its `%ns.key%` placeholders
 * become the Swedish texts (src/locales/sv) and `%icon.Name%` the antd icon's
 * SVG, at build time, so the page paints fully without any script.
 */
function landingPage(): Plugin {
  const texts = (ns: string) => JSON.parse(readFileSync(new URL(`./src/locales/sv/${ns}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
  const lookup = (path: string) => {
    const [ns, ...keys] = path.split('.');
    const value = keys.reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], texts(ns));
    if (typeof value !== 'string') throw new Error(`landing.html: no Swedish text ${path}`);
    return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  };
  const icon = (name: string) => {
    const { renderIconDefinitionToSVGElement } = require('@ant-design/icons-svg/lib/helpers') as {
      renderIconDefinitionToSVGElement: (def: unknown, opts: { extraSVGAttrs: Record<string, string> }) => string;
    };
    const def = (require(`@ant-design/icons-svg/lib/asn/${name}`) as { default: unknown }).default;
    const svg = renderIconDefinitionToSVGElement(def, { extraSVGAttrs: { width: '1em', height: '1em', fill: 'currentColor', 'aria-hidden': 'true' } });
    // Decorative (each sits beside its text): hidden from assistive technology.
    return `<span class="anticon" aria-hidden="true">${svg}</span>`;
  };
  return {
    name: 'landing-page',
    transformIndexHtml: {
      order: 'pre',
      handler(html, ctx) {
        if (!ctx.filename.endsWith('landing.html')) return html;
        return html.replace(/%icon\.([A-Za-z]+)%/g, (_, name: string) => icon(name)).replace(/%([a-z]+(?:\.[A-Za-z]+)+)%/g, (_, path: string) => lookup(path));
      },
    },
  };
}

/**
 * The default language's chunk (src/i18n/bundle.sv.ts: texts, dayjs and antd
 * locale) preloaded from index.html, so it loads in parallel with the entry
 * instead of after it (main.tsx waits for it before the first render).
 * English visitors load theirs on start as before.
 */
function preloadDefaultLanguage(): Plugin {
  return {
    name: 'preload-default-language',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.filename.endsWith('index.html')) return html;
        const chunks = Object.values(ctx.bundle).filter((c) => c.type === 'chunk');
        const bundle = chunks.find((c) => c.facadeModuleId?.endsWith('/src/i18n/bundle.sv.ts'));
        if (!bundle) return html;
        const files = [bundle.fileName, ...bundle.imports].filter((f) => !html.includes(`/${f}"`));
        return {
          html,
          tags: files.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}` }, injectTo: 'head' as const })),
        };
      },
    },
  };
}

/**
 * Hints for the first page of a role path: `assets/hints-[hash].js`, a small module script that index.html runs
 * as soon as it arrives (async, before the entry has loaded), adds `<link rel=modulepreload>` for what the page
 * at its address will load next, so those chunks come in parallel with the entry instead of after it (the entry
 * runs first, then the router asks for the area): for a signed-in visitor at a role's prefix, the area's shell,
 * the areas' texts and the server's in the visitor's language, the API client (and the customer's home page); for an English
 * visitor, the English texts. Nothing for a visitor without a session (the area would send them to /login).
 * An external script, not inline: the Content-Security-Policy allows no inline script.
 */
function roleHints(): Plugin {
  return {
    name: 'role-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const find = (test: (c: (typeof chunks)[number]) => boolean, what: string) => {
        const chunk = chunks.find(test);
        if (!chunk) this.error(`role hints: no chunk for ${what} (vite.config.ts roleHints)`);
        return chunk;
      };
      const byFacade = (path: string) => find((c) => !!c.facadeModuleId?.endsWith(path), path);
      // A chunk with its static imports and their CSS.
      const closure = (roots: (typeof chunks)[number][]) => {
        const files = new Set<string>();
        const stack = [...roots];
        while (stack.length) {
          const c = stack.pop()!;
          if (files.has(c.fileName)) continue;
          files.add(c.fileName);
          c.viteMetadata?.importedCss.forEach((f) => files.add(f));
          for (const f of c.imports) {
            const next = bundle[f];
            if (next?.type === 'chunk') stack.push(next);
          }
        }
        return files;
      };
      const source = html.source.toString();
      // What index.html loads already (the entry, its imports, the default language's chunk).
      const loaded = new Set([...source.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((m) => m[1]));
      const list = (...roots: (typeof chunks)[number][]) => [...closure(roots)].filter((f) => !loaded.has(f)).sort();
      const area = find((c) => c.moduleIds.some((id) => /[\\/]src[\\/]app[\\/]RoleArea\.tsx$/.test(id)), 'src/app/RoleArea.tsx');
      const amplify = byFacade('/src/api/amplify.ts');
      const home = byFacade('/src/pages/subscriptions/CustomerHome.tsx');
      const texts = { sv: byFacade('/src/i18n/area.sv.ts'), en: byFacade('/src/i18n/area.en.ts') };
      // Namespaces in chunks of their own (i18n/groups.ts `OWN_CHUNK_NAMESPACES`): an area loads the server's and the
      // account's with its texts, the two-factor and registration pages theirs with themselves (app/router.tsx).
      const own = (ns: string) => ({ sv: byFacade(`/src/locales/sv/${ns}.json`), en: byFacade(`/src/locales/en/${ns}.json`) });
      const serverTexts = own('server');
      const accountTexts = own('account');
      const registrationTexts = own('registration');
      // Not antd's theme nor its locale: an area's shell and dashboard draw no antd (app/router.tsx), and what does
      // loads them after the dashboard shows; fetched ahead, they took the slow line's first second from the dashboard.
      const staff = (lang: 'sv' | 'en') => list(area, amplify, texts[lang], serverTexts[lang], accountTexts[lang]);
      const customer = (lang: 'sv' | 'en') => list(area, amplify, texts[lang], serverTexts[lang], accountTexts[lang], home);
      const hints = {
        en: list(byFacade('/src/i18n/bundle.en.ts')),
        // The public forms that load with their route (app/router.tsx): opened directly (a link in a mail, the landing
        // page's buttons), their chunk is fetched beside the entry, not after it ran (a round trip less on a slow line).
        // With their texts in the visitor's language.
        pages: {
          '/registration': Object.fromEntries((['sv', 'en'] as const).map((l) => [l, list(byFacade('/src/pages/public/Registration.tsx'), registrationTexts[l])])),
          '/authentication': Object.fromEntries((['sv', 'en'] as const).map((l) => [l, list(byFacade('/src/pages/public/TwoFactorLogin.tsx'), accountTexts[l])])),
        },
        areas: Object.fromEntries(
          (['/admin/', '/lawyer/', '/sales/', '/user/', '/customer_contact/'] as const).map((prefix) => {
            const files = prefix === '/user/' || prefix === '/customer_contact/' ? customer : staff;
            return [prefix, { sv: files('sv'), en: files('en') }];
          }),
        ),
      };
      // Each file named once (without `assets/`), the lists by index: the script is loaded by every page.
      const names = [...new Set([...hints.en, ...[...Object.values(hints.pages), ...Object.values(hints.areas)].flatMap((a) => [...a.sv, ...a.en])])].sort();
      const index = (files: string[]) => files.map((f) => names.indexOf(f));
      const table = {
        f: names.map((f) => f.replace(/^assets\//, '')),
        en: index(hints.en),
        pages: Object.fromEntries(Object.entries(hints.pages).map(([p, a]) => [p, { sv: index(a.sv), en: index(a.en) }])),
        areas: Object.fromEntries(Object.entries(hints.areas).map(([p, a]) => [p, { sv: index(a.sv), en: index(a.en) }])),
      };
      const script = `const h=${JSON.stringify(table)};
try{const r=JSON.parse(localStorage.getItem('root')||'null'),l=r&&r.utilities&&r.utilities.language==='en'?'en':'sv',p=location.pathname,a=r&&r.auth&&r.auth.access_token&&Object.keys(h.areas).find(k=>p.startsWith(k));
for(const i of[...(l==='en'?h.en:[]),...(a?h.areas[a][l]:[]),...(r&&r.auth&&r.auth.access_token||!h.pages[p]?[]:h.pages[p][l])]){const x=h.f[i],k=document.createElement('link');if(x.endsWith('.css')){k.rel='preload';k.as='style'}else k.rel='modulepreload';k.crossOrigin='';k.href='/assets/'+x;document.head.appendChild(k)}}catch{}
`;
      const ref = this.emitFile({ type: 'asset', name: 'hints.js', source: script });
      const tag = `<script type="module" async src="/${this.getFileName(ref)}"></script>`;
      if (!source.includes('<script type="module"')) this.error('role hints: no module script in index.html');
      html.source = source.replace('<script type="module"', `${tag}\n    <script type="module"`);
    },
  };
}

/**
 * gzip and brotli copies of every text file of dist/ (`x.js.gz`, `x.js.br`),
 * made once at build time: the local gateway serves them by Accept-Encoding
 * as CloudFront does on AWS, and never compresses per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'precompress',
    apply: () => !process.env.VITEST,
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(file) || file.includes('/.vite/')) continue;
        const body = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }));
      }
    },
  };
}

/**
 * The API reference (`/api/docs`, a page of the api-docs function): Redoc's standalone bundle (the `redoc`
 * package, offline: served by us, not a CDN) and the page's script (api-reference/init.js with its texts,
 * api-reference/labels.json), at the fixed names the page loads, `/api-reference/…`. Apart from the app's
 * chunks: no page of the app imports them (src/budget.test.ts).
 */
function apiReference(): Plugin {
  const here = (file: string) => new URL(file, import.meta.url);
  return {
    name: 'api-reference',
    apply: 'build',
    generateBundle() {
      const init = readFileSync(here('./api-reference/init.js'), 'utf8');
      const slot = 'var TEXTS = __TEXTS__;';
      if (!init.includes(slot)) this.error(`api-reference/init.js: no "${slot}" to fill (vite.config.ts apiReference)`);
      const texts = JSON.stringify(JSON.parse(readFileSync(here('./api-reference/labels.json'), 'utf8')));
      this.emitFile({ type: 'asset', fileName: 'api-reference/init.js', source: init.replace(slot, `var TEXTS = ${texts};`) });
      const redoc = here('./node_modules/redoc/bundles/redoc.standalone.js');
      this.emitFile({ type: 'asset', fileName: 'api-reference/redoc.standalone.js', source: readFileSync(redoc) });
    },
  };
}

/**
 * The role areas' shell in two chunks instead of ~40 small ones (a dashboard made ~75 requests over
 * HTTP/1.1): every module the role area (`src/app/RoleArea.tsx`: layout, menu, route catalogue, antd's App)
 * imports statically, except what the entry already holds and what a public page may load too (their own lazy
 * chunks, the language menu, the §8 notifier): `area-vendor` for its node modules, `area` for the app's. An
 * area is always loaded before any of its pages, so a page sharing one of these modules costs no extra request.
 * The sets are computed from the module graph once it is complete (`buildEnd`), before chunks are made.
 */
/**
 * Static imports of antd's first-page modules that name a whole package for one
 * small export, resolved to the module that defines it: bundlers place
 * every statically imported module in the first page's chunk when the app uses
 * it anywhere, so `antd/es/form/context` (imported by Input) would bring all of
 * @rc-component/form and async-validator to the login page for `FormProvider`,
 * and Button's style tokens all of Collapse and the colour picker for `isBright`.
 * The same functions, from their own modules: nothing changes at run time.
 */
function firstPageImports(): Plugin {
  const ISBRIGHT = '\0antd-isBright';
  const NO_UNIQUE_TOOLTIP = '\0antd-no-unique-tooltip';
  const MOTION_PROVIDER = '\0antd-motion-provider';
  const SYNC_EXTERNAL_STORE = '\0react-use-sync-external-store';
  const AMPLIFY_CONFIG = '\0amplify-resources-config';
  const AMPLIFY_NO_SIGNING = '\0amplify-no-signing';
  return {
    name: 'first-page-imports',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer) return null;
      // react-i18next's useTranslation imports the shim of useSyncExternalStore for React before 18; React 19's own.
      if (source === 'use-sync-external-store/shim') return SYNC_EXTERNAL_STORE;
      if (source === '@rc-component/form' && /antd[\\/]es[\\/]form[\\/]context\.js$/.test(importer)) {
        return this.resolve('@rc-component/form/es/FormContext', importer, { skipSelf: true });
      }
      // antd's Input imports the rc input's default export only, not its TextArea (with the resize observer).
      if (source === '@rc-component/input' && /antd[\\/]es[\\/]input[\\/]Input\.js$/.test(importer)) {
        return this.resolve('@rc-component/input/es/Input', importer, { skipSelf: true });
      }
      // Button's loading icon and click wave import only CSSMotion (the default export), not the list.
      if (source === '@rc-component/motion' && /antd[\\/]es[\\/](button[\\/]DefaultLoadingIcon|_util[\\/]wave[\\/]WaveEffect)\.js$/.test(importer)) {
        return this.resolve('@rc-component/motion/es/CSSMotion', importer, { skipSelf: true });
      }
      if (source === '@rc-component/motion' && /antd[\\/]es[\\/]config-provider[\\/]MotionWrapper\.js$/.test(importer)) {
        return MOTION_PROVIDER;
      }
      // Amplify.configure parses two other shapes of configuration (the CLI's aws-exports and Gen 2's outputs, 3 KiB
      // gzip of every area's first page); the API client passes Amplify's own (api/amplify.ts), returned as it is.
      if (source === '../utils/parseAmplifyConfig.mjs' && /@aws-amplify[\\/]core[\\/]dist[\\/]esm[\\/]singleton[\\/]Amplify\.mjs$/.test(importer)) {
        return AMPLIFY_CONFIG;
      }
      // Amplify's REST calls sign a request with AWS credentials only when its auth mode is not 'none'; the client
      // sets 'none' (api/amplify.ts: the API's own tokens), so the signer (SigV4 with its SHA-256, ~3 KiB gzip of every
      // area's first page) is never called. Left out: a call that would sign throws instead.
      if (source === './baseHandlers/authenticatedHandler.mjs' && /@aws-amplify[\\/]api-rest[\\/]dist[\\/]esm[\\/]apis[\\/]common[\\/]transferHandler\.mjs$/.test(importer)) {
        return AMPLIFY_NO_SIGNING;
      }
      // Amplify's core imports the SHA-256 and hex packages for nothing but their side effects, which they have none of
      // (the signer above is what used them): without the mark they and tslib (~2.5 KiB gzip) stayed in every area.
      if ((source === '@aws-crypto/sha256-js' || source === '@smithy/util-hex-encoding') && /@aws-amplify[\\/]core[\\/]/.test(importer)) {
        const resolved = await this.resolve(source, importer, { skipSelf: true });
        return resolved && { ...resolved, moduleSideEffects: false };
      }
      if (source === '../tooltip/UniqueProvider' && /antd[\\/]es[\\/]config-provider[\\/]index\.js$/.test(importer)) {
        return NO_UNIQUE_TOOLTIP;
      }
      // And Tooltip's static `Tooltip.UniqueProvider` (with its motion and rc-trigger's shared popup), which nothing uses.
      if (source === './UniqueProvider' && /antd[\\/]es[\\/]tooltip[\\/]index\.js$/.test(importer)) {
        return NO_UNIQUE_TOOLTIP;
      }
      if (source === '../../color-picker/components/ColorPresets' && /antd[\\/]es[\\/]button[\\/]style[\\/]token\.js$/.test(importer)) {
        return ISBRIGHT;
      }
      return null;
    },
    load(id) {
      if (id === SYNC_EXTERNAL_STORE) return `export { useSyncExternalStore } from 'react';`;
      if (id === MOTION_PROVIDER) return `export { default as Provider } from '@rc-component/motion/es/context';`;
      if (id === AMPLIFY_CONFIG) {
        // Amplify's own check for the other shapes (utils/parseAmplifyConfig.mjs), which are not built in.
        return `export const parseAmplifyConfig = (config) => {
  if (Object.keys(config).some((key) => key.startsWith('aws_')) || String(config.version ?? '').startsWith('1')) {
    throw new Error('Amplify is configured with its own ResourcesConfig only: see firstPageImports in vite.config.ts');
  }
  return config;
};`;
      }
      if (id === AMPLIFY_NO_SIGNING) {
        return `export const authenticatedHandler = () => { throw new Error('AWS signing is not built in: see firstPageImports in vite.config.ts'); };`;
      }
      if (id === NO_UNIQUE_TOOLTIP) {
        // ConfigProvider wraps the app in it only for `tooltip={{ unique: true }}`, which the app never sets (App.tsx).
        return `export default function UniqueProvider() { throw new Error('tooltip.unique is not built in: see firstPageImports in vite.config.ts'); }`;
      }
      if (id !== ISBRIGHT) return null;
      // antd's own `isBright`, taken from the installed file (so an antd upgrade cannot leave a stale copy).
      const file = require.resolve('antd/es/color-picker/components/ColorPresets.js');
      const fn = /export const isBright = [\s\S]*?\n};\n/.exec(readFileSync(file, 'utf8'));
      if (!fn) this.error(`isBright not found in ${file}: update firstPageImports in vite.config.ts`);
      return `import { Color as RcColor } from '@rc-component/color-picker/es/color';\n${fn[0]}`;
    },
  };
}

/**
 * react-router's production build in a production build: its package exports name only its development build
 * (remix-run/react-router#12532, #14102), whose `ENABLE_DEV_WARNINGS = true` keeps warnings and every component's
 * `displayName` assignment, which in turn keep components the app never uses (Form, NavLink, ScrollRestoration,
 * the framework's scripts) in the entry's chunk. The production build is the same code with the flag false.
 */
function reactRouterProduction(): Plugin {
  return {
    name: 'react-router-production',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source !== 'react-router') return null;
      const dev = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!dev || !/[\\/]react-router[\\/]dist[\\/]development[\\/]/.test(dev.id)) {
        this.error(`react-router resolved to ${dev?.id}: update reactRouterProduction in vite.config.ts`);
      }
      return dev.id.replace(/([\\/]dist[\\/])development([\\/])/, '$1production$2');
    },
    // Even there, each component's `displayName` assignment is a statement the bundler must keep, and with it the
    // component (NavLink, Form, ScrollRestoration, the framework's scripts): React calls (createContext, forwardRef,
    // memo) on a namespace of a CommonJS module are not known to be free of side effects. The names are for React's
    // developer tools only; the calls are marked pure, so what no module uses is left out.
    transform: {
      filter: { id: /[\\/]react-router[\\/]dist[\\/]production[\\/][^\\/]+\.mjs$/ },
      handler(code) {
        const pure = code
          .replace(/^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm, '')
          .replace(/= (React\d*\.(?:createContext|forwardRef|memo)\()/g, '= /* @__PURE__ */ $1');
        return pure === code ? null : { code: pure, map: null };
      },
    },
  };
}

/**
 * `…/routes.json?public`: a locale's route titles of the public pages only (src/i18n/groups.ts `PUBLIC_ROUTE_TITLES`),
 * for the language's first chunk (src/i18n/bundle.<lang>.ts); the areas' chunk has all of them.
 */
function publicRouteTitles(): Plugin {
  const SUFFIX = '/routes.json?public';
  return {
    name: 'public-route-titles',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!source.endsWith(SUFFIX)) return null;
      const file = await this.resolve(source.slice(0, -'?public'.length), importer, { ...options, skipSelf: true });
      return file ? `${file.id}?public` : null;
    },
    load(id) {
      if (!id.endsWith(SUFFIX)) return null;
      const file = id.slice(0, -'?public'.length);
      this.addWatchFile(file);
      const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      const missing = PUBLIC_ROUTE_TITLES.filter((k) => typeof all[k] !== 'string');
      if (missing.length) this.error(`${file}: no route title ${missing.join(', ')} (src/i18n/groups.ts PUBLIC_ROUTE_TITLES)`);
      // A module of its own (the query keeps it apart from the whole file, which an area loads).
      return { code: `export default ${JSON.stringify(Object.fromEntries(PUBLIC_ROUTE_TITLES.map((k) => [k, all[k]])))};`, moduleType: 'js' };
    },
  };
}

function areaGroups() {
  const area = new Set<string>();
  // components/AntdTheme.tsx and everything it imports statically: antd's ConfigProvider, theme and CSS-in-JS runtime;
  // and antd's Button and Input with theirs.
  const theme = new Set<string>();
  const plugin: Plugin = {
    name: 'area-groups',
    apply: 'build',
    buildEnd() {
      area.clear();
      const ids = [...this.getModuleIds()];
      const info = (id: string) => this.getModuleInfo(id);
      const isArea = (id: string) => /[\\/]src[\\/]app[\\/]RoleArea\.tsx$/.test(id);
      // Everything a visitor outside an area can load: from the entries, statically or lazily, not through RoleArea.
      const publicSide = new Set<string>();
      const stack = ids.filter((id) => info(id)?.isEntry);
      while (stack.length) {
        const id = stack.pop()!;
        if (publicSide.has(id) || isArea(id)) continue;
        publicSide.add(id);
        const m = info(id);
        if (m) stack.push(...m.importedIds, ...m.dynamicallyImportedIds);
      }
      const roots = ids.filter(isArea);
      while (roots.length) {
        const id = roots.pop()!;
        if (area.has(id)) continue;
        area.add(id);
        roots.push(...(info(id)?.importedIds ?? []));
      }
      for (const id of publicSide) area.delete(id);
      theme.clear();
      // With antd's Button and Input, which every area draws (the entry held them before components/plain); not
      // Password, which no area's first page draws (the pages that do load it with themselves).
      const themeRoots = ids.filter((id) => /[\\/]src[\\/]components[\\/]AntdTheme\.tsx$|[\\/]node_modules[\\/]antd[\\/]es[\\/](button[\\/]index|input[\\/]Input)\.js$/.test(id));
      while (themeRoots.length) {
        const id = themeRoots.pop()!;
        if (theme.has(id)) continue;
        theme.add(id);
        themeRoots.push(...(info(id)?.importedIds ?? []));
      }
      // Not what the entries load statically (the session store, the texts, constants): they stay in the entries' chunks.
      const entryStatic = ids.filter((id) => info(id)?.isEntry);
      const seen = new Set<string>();
      while (entryStatic.length) {
        const id = entryStatic.pop()!;
        if (seen.has(id)) continue;
        seen.add(id);
        theme.delete(id);
        entryStatic.push(...(info(id)?.importedIds ?? []));
      }
    },
  };
  const nodeModule = /[\\/]node_modules[\\/]/;
  // Input's parts no area's first page draws (the header's conflict search is Input.Search): TextArea, OTP, Group and
  // Password,
  // and the barrels that bring them (input/index, the rc input's index). In ui-shared they came to every dashboard.
  const NOT_FIRST_PAGE_INPUT =
    /[\\/]node_modules[\\/](antd[\\/]es[\\/]input[\\/]((index|TextArea|Group|Password)\.js$|OTP[\\/])|@rc-component[\\/]input[\\/]es[\\/](index|TextArea|ResizableTextArea|calculateNodeHeight)\.js$)/;
  return {
    plugin,
    groups: [
      // The icons' component and its colours (the menus' icons: an area's first page, which draws no antd), and the
      // two icons the header's search draws that antd's Button and Input use too, first: in antd's base they brought
      // all of it to every dashboard (src/budget.test.ts); antd's base imports them.
      {
        name: 'icons',
        test: /[\\/]node_modules[\\/](@ant-design[\\/](icons[\\/]es[\\/](components[\\/]|[a-zA-Z]+\.js$)|icons-svg[\\/]es[\\/]asn[\\/](CloseCircleFilled|SearchOutlined)\.js$|colors|fast-color)|clsx)[\\/]?/,
        includeDependenciesRecursively: false,
      },
      // antd's base (components/AntdTheme.tsx with its static imports: ConfigProvider, the theme, the CSS-in-JS runtime,
      // rc-util, motion; and Button, Input) in one chunk, first: the entry holds no antd (components/plain), and every chunk below
      // imports from it. Left to the bundler it was split into a dozen chunks that import each other and the groups
      // below in cycles (src/budget.test.ts). What the entry holds stays there (the groups above take it first).
      // And what antd's locales share (a picker's texts, a Babel helper): loaded with the theme (i18n/index.ts
      // `loadAntdLocale`); chunks of their own otherwise (two more requests for a few hundred bytes).
      {
        name: 'antd-base',
        test: (id: string) => theme.has(id) || /[\\/]node_modules[\\/](@rc-component[\\/]picker[\\/]lib[\\/]locale[\\/]common|@babel[\\/]runtime[\\/]helpers[\\/](esm[\\/]extends|interopRequireDefault))\.js$/.test(id),
        includeDependenciesRecursively: false,
      },
      // antd's parts of the areas' shell by what they serve (with their dependencies not taken yet): the side
      // and user menus (also the public pages' language menu), antd's message, modal and notification (the
      // pages' confirmations and the §8 warning, layout/notifier.tsx: loaded at the first click or after 4 s), and the header's badges and avatar with the pages' typography.
      // With antd's Layout: Menu reads the Sider's context (left to the bundler, Layout went to a page's chunk that
      // imports this one: a cycle).
      { name: 'ui-menu', test: /[\\/]node_modules[\\/](antd[\\/]es[\\/](menu|layout|dropdown(?![\\/](index|dropdown-button)\.js))|@rc-component[\\/](menu|dropdown))[\\/]/, includeDependenciesRecursively: false },
      { name: 'ui-feedback', test: /[\\/]node_modules[\\/](antd[\\/]es[\\/](app|modal|message|notification)|@rc-component[\\/](dialog|notification))[\\/]/, includeDependenciesRecursively: false },
      // antd's internals and small parts the areas and the public forms share (Tooltip, the grid, helpers, motion):
      // one chunk rather than a dozen of a few hundred bytes each. Also what the first page imports only in part
      // or not at all any more (firstPageImports, the login page's own imports): Input's other parts, Space,
      // the overlay (trigger, portal), the motion list, antd's internal icons. Left to the bundler they made 14
      // more chunks on a dashboard (10–14 more requests, 0.2–0.5 s later usable on a throttled phone); in one
      // group with Tooltip and the grid, as they import each other (two groups made a chunk cycle:
      // src/budget.test.ts). Not Skeleton nor dayjs, which no area's first page uses (components/Skeletons.tsx,
      // i18n/dates.ts): the pages that do load them with themselves.
      {
        name: 'ui-shared',
        test: (id: string) =>
          /[\\/]node_modules[\\/](antd[\\/]es[\\/](tooltip|grid|row|col|_util|style)|@rc-component[\\/]tooltip)[\\/]/.test(id) ||
          (!NOT_FIRST_PAGE_INPUT.test(id) && /[\\/]node_modules[\\/](antd[\\/]es[\\/](input|space|theme[\\/]util)[\\/]|@rc-component[\\/](input|overflow|resize-observer|portal|trigger)[\\/]|antd[\\/]es[\\/](color-picker[\\/](util|color)|table[\\/]TableMeasureRowContext)\.js|@rc-component[\\/]motion[\\/]es[\\/](CSSMotionList|util[\\/]diff|index)\.js|@ant-design[\\/]icons(-svg)?[\\/]es[\\/](icons|asn)[\\/](Bars|CheckCircleFilled|Close|Ellipsis|ExclamationCircleFilled|InfoCircleFilled|Left|Right)(Outlined|Filled)?\.js)/.test(
            id,
          )),
        includeDependenciesRecursively: false,
      },
      // The header's and the menus' icons, which pages share with the shell: left to the bundler they came in small
      // chunks of their own (more requests and bytes on every dashboard).
      {
        name: 'ui-area',
        test: /[\\/]node_modules[\\/]@ant-design[\\/](icons(-svg)?[\\/]es[\\/](icons|asn)[\\/](Bell|Logout|MenuFold|MenuUnfold|Message|Appstore|Bank|BarChart|CustomerService|Dashboard|FileText|FolderOpen|PlayCircle|Setting|User)Outlined\.js|icons[\\/]es[\\/]icons[\\/](Lock|Safety|Team)Outlined\.js)/,
        includeDependenciesRecursively: false,
      },
      { name: 'area', test: (id: string) => area.has(id) && !nodeModule.test(id), includeDependenciesRecursively: false },
    ],
  };
}
const area = areaGroups();

// The gateway serves dist/ at "/" (landing.html at "/" itself, SPA fallback to
// index.html elsewhere) and the API under /api/ on the same origin. In
// `npm run dev` the API is proxied to the local gateway (override with
// API_PROXY=http://host:port).
export default defineConfig({
  base: '/',
  plugins: [react(), reactRouterProduction(), publicRouteTitles(), firstPageImports(), landingPage(), preloadDefaultLanguage(), roleHints(), apiReference(), precompress(), area.plugin, componentImports()],
  server: {
    proxy: {
      '/api': process.env.API_PROXY ?? 'http://127.0.0.1:3000',
    },
  },
  preview: {
    proxy: {
      '/api': process.env.API_PROXY ?? 'http://127.0.0.1:3000',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No catch-all vendor chunk: node modules are split by the routes that use them, so a page loads
    // only what it shows (budgets: src/budget.test.ts, from this manifest). The one group is the node
    // modules the entry itself needs ('$initial': statically imported by an entry), in one chunk instead
    // of twenty small ones: fewer requests and better compression for the first page. '$initial' follows
    // every static import, used or not: a module of the entry importing the `antd` or `@ant-design/icons`
    // barrel would pull every component used anywhere into this chunk, so the entry's modules import antd
    // per component (`antd/es/button`) and icons one by one (budget: src/budget.test.ts).
    manifest: true,
    // No modulepreload polyfill (0.4 KiB of the first page): every browser the app supports preloads modules itself
    // (Safari 17, Firefox 115); one that does not loads the same chunks when they are imported.
    modulePreload: { polyfill: false },
    // The initial vendor chunk is ~1 MB before compression; the budgets (gzip) are the real limit.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      input: { app: 'index.html', landing: 'landing.html' },
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor-initial', test: /[\\/]node_modules[\\/]/, tags: ['$initial'] },
            // The app's own modules of the first page in one chunk too; not what the static landing page's script
            // imports (its texts, constants, formatters and styles), or the landing page would load React with them.
            {
              name: 'app-initial',
              // And Vite's preload helper (the entry's dynamic imports use it): a request of its own otherwise.
              test: /[\\/]src[\\/](?!main\.tsx|landing[\\/]|locales[\\/]|config[\\/]constants\.ts|format\.ts|styles\.css)|^\0vite[\\/]preload-helper/,
              tags: ['$initial'],
              includeDependenciesRecursively: false,
            },
            // The API client and the sign-in's calls (api/client.ts, api/auth.ts, api/users.ts, auth/flow.ts with the
            // device tokens): not on the public pages' first load (they load at the first use of a form), but with every
            // area; one chunk rather than four requests of about a kilobyte each. And the forms' error reveal
            // (components/reveal.ts), which antd's theme and api/formErrors.ts share: in antd's base chunk, the reading
            // of a failed sign-in's answer brought all of antd's base (56 KiB) at the login form's first focus.
            { name: 'api-client', test: /[\\/]src[\\/](api[\\/](client|auth|users)|auth[\\/]flow|store[\\/]deviceTokens|components[\\/]reveal)\.ts$/, includeDependenciesRecursively: false },
            ...area.groups,
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/test/setup.ts'],
    // One copy of antd in tests, its CommonJS build, which Node loads itself. The app imports some components from
    // `antd/es/...` (the build then bundles only those); `antd` itself resolves to the CommonJS build under Node, so
    // without this each file loaded antd twice: its CommonJS build and, transformed by Vite, its ES build. Two copies
    // also meant two sets of React contexts: a component from one copy did not read the other's ConfigProvider (the
    // theme, the locale). The production build resolves both to the ES build, so it has one copy too.
    alias: [{ find: /^(antd|@ant-design\/icons|@ant-design\/icons-svg)\/es\//, replacement: '$1/lib/' }],
    // The ES modules CommonJS dependencies require() are loaded before anything else in each worker (why:
    // src/test/preloadRequiredEsm.cjs).
    execArgv: ['--require', fileURLToPath(new URL('src/test/preloadRequiredEsm.cjs', import.meta.url))],
    // Limits for failing, not speed checks: CI runs these beside the Rust tests on two cores, where a page test
    // that takes 2 s alone took over 10 s (page tests' files set 180 s, their waits at least 30 s: renderApp.tsx).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two files at a time. Vitest's default on two cores is one (cores - 1), and its page tests mostly wait
    // (for timers, antd's motion, the fake API's replies): one at a time they took 511 s of CI's 524 s test
    // step for about a tenth of a core (6 of the slowest files: 1,105 s wall for 136 s of CPU).
    maxWorkers: 2,
    // Each file in a worker thread rather than a child process (vitest's default): the same isolation (a fresh
    // worker and module graph per file; the preload above runs in each), without a Node process started per
    // file. Beside the Rust tests as the test command runs them: 459 → 437 CPU-s for the step, all 569 passing.
    // (The files that need a worker of their own, below; the rest run in VM contexts.)
    pool: 'threads',
    // A test's console output is written straight to the worker's stderr instead of being sent to the runner.
    // Sent, a warning logged late (antd's or React's, from a timer on a loaded machine) can still be in flight
    // when the file's worker closes, and vitest then fails the whole run with every test passed
    // ("Closing rpc while onUserConsoleLog was pending": CI, once; vitest-dev/vitest#11153, open). The lines
    // lose only the name of the test that printed them.
    disableConsoleIntercept: true,
    // The files in a VM context each (vitest's vmThreads) in workers kept from file to file, rather than a fresh
    // worker per file: each file still has its own globals, DOM and module graph, but Node's loaded modules
    // (antd's CommonJS build, React, jsdom) are not read and compiled again for every file. The whole suite
    // alone: 152 → 93 CPU-s, 104 → 82 s, all 570 passing. Two files keep a worker of their own: the budgets
    // (Vite's build, whose native bundler refuses plugin objects made in another context) and the check of the
    // workers' preload (it tests Node's own require, which a VM context does not use).
    projects: [
      {
        extends: true,
        test: { name: 'vm', pool: 'vmThreads', include: ['src/**/*.test.{ts,tsx}'], exclude: OWN_WORKER },
      },
      { extends: true, test: { name: 'worker', include: OWN_WORKER } },
    ],
  },
});
