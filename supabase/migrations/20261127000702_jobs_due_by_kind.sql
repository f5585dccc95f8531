-- The job runner claims the kinds that must not wait (reminders, e-mail) before bulk work (the
-- text of a whole library, queued at once by a first start): with 100,000 pending text jobs,
-- finding the one due e-mail must not read them all. Pending jobs by kind, in due order.
create index jobs_due_by_kind_idx on private.jobs (kind, run_after, id)
  where finished_at is null and failed_at is null;
