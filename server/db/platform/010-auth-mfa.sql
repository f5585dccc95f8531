-- How each session was signed in (GoTrue's `auth.mfa_amr_claims`): the `amr` claim of its
-- access tokens, one row per method (password, otp, recovery, totp). A session with a `totp`
-- claim is at `aal2`.
create table auth.mfa_amr_claims (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  constraint mfa_amr_claims_session_id_authentication_method_pkey
    unique (session_id, authentication_method)
);

-- Second factors (GoTrue's `auth.mfa_factors`): TOTP only. `secret` is the TOTP seed, sealed
-- with a key derived from the server's JWT secret (AES-256-GCM), so that the table alone
-- yields no codes. `last_used_step` is the time step of the last accepted code: a code is
-- accepted once, never again within its window.
create table auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null constraint mfa_factors_factor_type_check check (factor_type = 'totp'),
  status text not null constraint mfa_factors_status_check check (status in ('unverified', 'verified')),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text not null,
  last_challenged_at timestamptz,
  last_used_step bigint
);
create index mfa_factors_user_id_idx on auth.mfa_factors (user_id);
create unique index mfa_factors_user_friendly_name_unique
  on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';

-- Challenges (GoTrue's `auth.mfa_challenges`): a code is verified against one, once.
-- `failed_attempts` counts wrong codes against the factor's challenges: past five in ten
-- minutes the factor refuses codes for a while.
create table auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null,
  verified_at timestamptz,
  ip_address inet,
  failed_attempts integer not null default 0
);
create index mfa_challenge_factor_id_idx on auth.mfa_challenges (factor_id);

-- Only the server's own connection uses them: no API role may read or write them. The app's
-- migrations read a user's factors through SECURITY DEFINER functions.
alter table auth.mfa_amr_claims enable row level security;
alter table auth.mfa_factors enable row level security;
alter table auth.mfa_challenges enable row level security;
revoke all on auth.mfa_amr_claims, auth.mfa_factors, auth.mfa_challenges
  from public, anon, authenticated, service_role;

-- As every auth table (006): hosted Supabase gives `postgres` (here hosted_postgres) every right
-- on them, so the migrations' definer functions can read them.
grant all on all tables in schema auth to hosted_postgres;
grant execute on all functions in schema auth to hosted_postgres;
