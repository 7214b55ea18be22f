/** The avatar of the signed-in user (header and profile page). */

/** The avatar shows the profile image unless the value is the text 'not set' (spec §2). */
export function avatarSrc(image: string | null | undefined): string | undefined {
  if (!image || image.trim() === '' || image.trim().toLowerCase() === 'not set') return undefined;
  return image;
}

/** The avatar's fallback: the first letter of the name (or e-mail). */
export function initialOf(user: { full_name?: string; email?: string } | null | undefined): string {
  const base = user?.full_name?.trim() || user?.email?.trim() || '';
  return base ? base[0].toUpperCase() : '?';
}
