/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The gateway serves dist/ at "/" (SPA fallback to index.html) and the API
// under /api/ on the same origin. In `npm run dev` the API is proxied to the
// local gateway (override with API_PROXY=http://host:port).
export default defineConfig({
  base: '/',
  plugins: [react()],
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
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // Vendor libraries in long-cached chunks; the role area (layout, route catalogue) and each page stay lazy chunks.
        codeSplitting: {
          groups: [
            { name: 'vendor-react', test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 40 },
            { name: 'vendor-amplify', test: /[\\/]node_modules[\\/](aws-amplify|@aws-amplify|@aws-crypto|@aws-sdk|@smithy)[\\/]/, priority: 30 },
            { name: 'vendor-i18n', test: /[\\/]node_modules[\\/](i18next|react-i18next|dayjs)[\\/]/, priority: 20 },
            // Everything else but the statistics charts and what only they use: those stay in the lazy chunks of the
            // charts (statistics pages), never in the initial load.
            {
              name: 'vendor-antd',
              test: /[\\/]node_modules[\\/](?!@ant-design[\\/](plots|charts-util)|@antv|d3-|internmap|gl-matrix|pdfast|flru|fecha|svg-path-parser|html2canvas|css-line-break|text-segmentation|utrie|base64-arraybuffer)/,
              priority: 10,
            },
          ],
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
