-- The linked-account hourly rate joins the dual-controlled changes (a higher rate waits for a second admin).
ALTER TABLE "control_changes" DROP CONSTRAINT "control_changes_kind_known";--> statement-breakpoint
ALTER TABLE "control_changes" ADD CONSTRAINT "control_changes_kind_known" CHECK ("control_changes"."kind" in ('settings', 'rebate', 'role', 'unfreeze', 'linked_rate'));
