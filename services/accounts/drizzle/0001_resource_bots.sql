ALTER TABLE "accounts"."users" ADD COLUMN "bot_resource_type" text;--> statement-breakpoint
ALTER TABLE "accounts"."users" ADD COLUMN "bot_resource_id" integer;--> statement-breakpoint
CREATE INDEX "users_bot_resource_idx" ON "accounts"."users" USING btree ("bot_resource_type","bot_resource_id");