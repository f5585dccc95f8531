-- GoTrue's secure e-mail change and password reauthentication (issue 22, R5), with GoTrue's
-- column names:
-- * `auth.users.email_change_confirm_status`: how many of the two links of an e-mail change
--   (to the current and to the new address) were used; the change happens with the second.
-- * `auth.users.reauthentication_sent_at`: when the last reauthentication code was sent.
-- * two more kinds of one-time token: the link to the current address of an e-mail change, and
--   the reauthentication code that a new password may need (`[auth.email]
--   secure_password_change`).
alter table auth.users
  add column email_change_confirm_status smallint default 0
    constraint users_email_change_confirm_status_check
      check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2),
  add column reauthentication_sent_at timestamptz;

alter table auth.one_time_tokens
  drop constraint one_time_tokens_token_type_check,
  add constraint one_time_tokens_token_type_check check (
    token_type in ('confirmation_token', 'reauthentication_token', 'recovery_token',
                   'email_change_token_new', 'email_change_token_current')
  );
