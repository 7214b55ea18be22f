/** Types of api-types.mjs (the generator of src/types/api.gen.ts). */
export const documentPath: string;
export const generatedPath: string;
export function generate(): Promise<string>;
