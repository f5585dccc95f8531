-- One-time tokens of the e-mails the auth service sends (password recovery, e-mail change,
-- sign-up confirmation), as GoTrue's `auth.one_time_tokens` keeps them: one per user and kind,
-- replaced when a new e-mail of that kind is sent, deleted when used.
--
-- Unlike GoTrue, nothing here can be used as it is stored: `token_hash` is the SHA-256 digest
-- of the link's 256-bit secret, `code_hash` the digest of the six-digit code bound to the user,
-- and a code wrong five times is void (`failed_attempts`), so a copy of this table opens no
-- account and a code cannot be guessed.
create table auth.one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null
    constraint one_time_tokens_token_type_check check (
      token_type in ('confirmation_token', 'recovery_token', 'email_change_token_new')
    ),
  token_hash text not null,
  code_hash text not null,
  -- The address the e-mail went to (for an e-mail change, the new address).
  relates_to text not null,
  failed_attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, token_type)
);
create unique index one_time_tokens_token_hash_idx on auth.one_time_tokens (token_hash);

-- Only the server's own connection uses it: no API role may read or write it.
alter table auth.one_time_tokens enable row level security;
revoke all on auth.one_time_tokens from public, anon, authenticated, service_role;

-- As every auth table (006): hosted Supabase gives `postgres` (here hosted_postgres) every right
-- on them, so the migrations' definer functions can read them.
grant all on all tables in schema auth to hosted_postgres;
grant execute on all functions in schema auth to hosted_postgres;
