-- A member's own name, which they set in the profile dialog of the navigation bar.
--
-- Who may change it is already decided by the first migration, and that rule stays: the
-- signed-in role may update the one column `full_name` (column grant), of its own row only and
-- only while active (policy "active users update their own profile"); no function is added, so
-- there is no second way in. This adds what a stored name must be, whoever writes it: no
-- spaces around it and not empty (no name is null), as invite_user already stores the names it
-- is given; at most 200 characters stays user_profiles_full_name_length.

-- Names written before this rule are tidied the same way.
update public.user_profiles p
set full_name = nullif(private.trim_whitespace(p.full_name), '')
where p.full_name is distinct from nullif(private.trim_whitespace(p.full_name), '');

alter table public.user_profiles
  add constraint user_profiles_full_name_trimmed
  check (full_name <> '' and full_name !~ '^[[:space:]]|[[:space:]]$');
