// @vitest-environment node
import { readFileSync } from 'node:fs';
import { generate, generatedPath } from '../../scripts/api-types.mjs';

describe('the generated API types', () => {
  it('are what openapi-typescript makes of functions/api-docs/openapi.json (run `npm run gen:api` when not)', async () => {
    expect(readFileSync(generatedPath, 'utf8') === (await generate())).toBe(true);
  }, 60_000);
});
