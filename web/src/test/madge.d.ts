// madge ships no types: the part of its API the import-circle test uses.
declare module 'madge' {
  interface MadgeResult {
    circular(): string[][];
    obj(): Record<string, string[]>;
  }
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    excludeRegExp?: RegExp[];
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
