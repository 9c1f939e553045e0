CREATE TABLE "merge_requests"."subscriptions" (
	"subscribable_type" text NOT NULL,
	"subscribable_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"subscribed" boolean NOT NULL,
	CONSTRAINT "subscriptions_subscribable_type_subscribable_id_user_id_pk" PRIMARY KEY("subscribable_type","subscribable_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_request_reviewers" ADD COLUMN "state" text DEFAULT 'unreviewed' NOT NULL;