-- The logo as PNG, JPEG or WebP as well as SVG (issue 24, item 1). An admin uploads the image
-- as `{organization_id}/logo-source` in the bucket `branding` and asks for it to be converted
-- (convert_logo); the server's background processes resize it with sharp (at most 25 million
-- pixels in, 512 × 512 out, its metadata dropped) into `{organization_id}/logo.png`, which
-- replaces an SVG logo, and remove the upload. logo_conversion tells the admin how it went.
-- Only the server writes logo.png: what the bar shows of a raster logo is what sharp made.

update storage.buckets
set file_size_limit = 5242880,
    allowed_mime_types = '{image/svg+xml,image/png,image/jpeg,image/webp}'
where id = 'branding';

drop policy "admins upload their organisation's logo" on storage.objects;
drop policy "admins replace their organisation's logo" on storage.objects;
drop policy "admins remove their organisation's logo" on storage.objects;

create policy "admins upload their organisation's logo"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'branding'
    and name in ((select private.caller_organization_id('admin')::text) || '/logo.svg',
                 (select private.caller_organization_id('admin')::text) || '/logo-source')
  );

create policy "admins replace their organisation's logo"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'branding'
    and name in ((select private.caller_organization_id('admin')::text) || '/logo.svg',
                 (select private.caller_organization_id('admin')::text) || '/logo-source')
  )
  with check (
    bucket_id = 'branding'
    and name in ((select private.caller_organization_id('admin')::text) || '/logo.svg',
                 (select private.caller_organization_id('admin')::text) || '/logo-source')
  );

create policy "admins remove their organisation's logo"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'branding'
    and name in ((select private.caller_organization_id('admin')::text) || '/logo.svg',
                 (select private.caller_organization_id('admin')::text) || '/logo.png',
                 (select private.caller_organization_id('admin')::text) || '/logo-source')
  );

-- As in the baseline, without the upload that is not the logo yet, nor the removal of one
-- logo the other replaces.
create or replace function private.log_logo_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _object storage.objects := coalesce(new, old);
  _organization_id uuid := private.object_organization_id(_object.bucket_id, _object.name);
begin
  -- An image uploaded to be converted (`logo-source`) is not the logo yet: its logo.png is.
  if _object.bucket_id <> 'branding' or _organization_id is null
     or _object.name like '%/logo-source'
     or not private.organization_exists(_organization_id) then
    return null;
  end if;
  -- One logo replacing the other (an SVG after a converted image, or the reverse) removes the
  -- other: a change, already logged, not a removal.
  if tg_op = 'DELETE' and exists (
    select 1 from storage.objects o
    where o.bucket_id = 'branding'
      and o.name in (_organization_id || '/logo.svg', _organization_id || '/logo.png')
      and o.name <> _object.name
  ) then
    return null;
  end if;
  -- An upload's row is written twice (checked first, then with its size): log the final one.
  if tg_op <> 'DELETE' and coalesce(_object.metadata ->> 'size', '') !~ '^[0-9]+$' then
    return null;
  end if;
  perform private.log_activity(_organization_id,
    case when tg_op = 'DELETE' then 'settings.logo_removed' else 'settings.logo_changed' end,
    null, 'logo');
  return null;
end
$$;

-- Admins ask for the uploaded image to become the logo; one conversion at a time per
-- organisation, tried once.
create function public.convert_logo()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Only admins can change the logo';
  end if;
  perform private.require_second_factor(_me.id);
  if not exists (select 1 from storage.objects o
                 where o.bucket_id = 'branding' and o.name = _me.organization_id || '/logo-source') then
    raise exception 'Upload the image first';
  end if;
  perform private.enqueue_job('branding.convert-logo', '{}'::jsonb, _me.organization_id,
                              'logo:' || _me.organization_id, now(), 1);
end
$$;

-- How the organisation's latest conversion went: `working`, `done`, or `failed` with the reason
-- in words for the admin; null when there was none.
create function public.logo_conversion()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _job private.jobs;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Only admins can change the logo';
  end if;
  select * into _job from private.jobs j
  where j.kind = 'branding.convert-logo' and j.organization_id = _me.organization_id
  order by j.id desc limit 1;
  if not found then
    return null;
  end if;
  return jsonb_build_object(
    'status', case when _job.finished_at is not null then 'done'
                   when _job.failed_at is not null then 'failed'
                   else 'working' end,
    'error', case when _job.failed_at is not null then _job.last_error end);
end
$$;

revoke all on function public.convert_logo() from public, anon, authenticated;
revoke all on function public.logo_conversion() from public, anon, authenticated;
grant execute on function public.convert_logo() to authenticated;
grant execute on function public.logo_conversion() to authenticated;
