/// <reference types="vite/client" />

/** A locale's route titles of the public pages only (vite.config.ts `publicRouteTitles`). */
declare module '*/routes.json?public' {
  const titles: Record<string, string>;
  export default titles;
}
