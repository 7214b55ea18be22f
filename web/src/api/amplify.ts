/**
 * The parts of Amplify the API client uses, loaded lazily by it (api/setup.ts `loadApi`): importing the
 * packages' namespaces with `import()` would keep every export of @aws-amplify/core; imported here by name,
 * the rest is left out.
 */
import { Amplify } from '@aws-amplify/core';
import { del, get, patch, post, put } from '@aws-amplify/api-rest';

export const rest = { get, post, put, patch, del };

/**
 * Amplify's REST category at `endpoint`: no retries, no AWS signing (the API's own tokens). In Amplify's own
 * configuration shape: the build leaves out its parsers of the other shapes (vite.config.ts `firstPageImports`).
 */
export function configure(endpoint: string, apiName: string): void {
  Amplify.configure(
    { API: { REST: { [apiName]: { endpoint } } } },
    { API: { REST: { retryStrategy: { strategy: 'no-retry' }, defaultAuthMode: 'none' } } },
  );
}
