/** Invited By: the inviter's full name, else their e-mail, else Unknown (spec §2). */
export function inviterName(
  profile: { full_name: string | null; email: string | null } | null,
): string {
  return profile?.full_name?.trim() || profile?.email?.trim() || 'Unknown';
}
