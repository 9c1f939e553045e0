ALTER TABLE "runners"."jobs" ADD COLUMN "token_digest" text;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_token_digest_idx" ON "runners"."jobs" USING btree ("token_digest");