/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);

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

// The gateway serves dist/ at "/" (landing.html at "/" itself, SPA fallback to
// index.html elsewhere) and the API under /api/ on the same origin. In
// `npm run dev` the API is proxied to the local gateway (override with
// API_PROXY=http://host:port).
export default defineConfig({
  base: '/',
  plugins: [react(), landingPage(), preloadDefaultLanguage(), precompress()],
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
    // of twenty small ones: fewer requests and better compression for the first page.
    manifest: true,
    // The initial vendor chunk is ~1 MB before compression; the budgets (gzip) are the real limit.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      input: { app: 'index.html', landing: 'landing.html' },
      output: {
        codeSplitting: {
          groups: [{ name: 'vendor-initial', test: /[\\/]node_modules[\\/]/, tags: ['$initial'] }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});
