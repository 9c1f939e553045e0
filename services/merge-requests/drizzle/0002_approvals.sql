CREATE TABLE "merge_requests"."approval_merge_request_rule_groups" (
	"rule_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	CONSTRAINT "approval_merge_request_rule_groups_rule_id_group_id_pk" PRIMARY KEY("rule_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."approval_merge_request_rule_users" (
	"rule_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "approval_merge_request_rule_users_rule_id_user_id_pk" PRIMARY KEY("rule_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."approval_merge_request_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"merge_request_id" integer NOT NULL,
	"name" text NOT NULL,
	"rule_type" text DEFAULT 'regular' NOT NULL,
	"report_type" text,
	"approvals_required" integer DEFAULT 0 NOT NULL,
	"approval_project_rule_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."approval_project_rule_groups" (
	"rule_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	CONSTRAINT "approval_project_rule_groups_rule_id_group_id_pk" PRIMARY KEY("rule_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."approval_project_rule_protected_branches" (
	"rule_id" integer NOT NULL,
	"protected_branch_id" integer NOT NULL,
	CONSTRAINT "approval_project_rule_protected_branches_rule_id_protected_branch_id_pk" PRIMARY KEY("rule_id","protected_branch_id")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."approval_project_rule_users" (
	"rule_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "approval_project_rule_users_rule_id_user_id_pk" PRIMARY KEY("rule_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."approval_project_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"rule_type" text DEFAULT 'regular' NOT NULL,
	"report_type" text,
	"approvals_required" integer DEFAULT 0 NOT NULL,
	"applies_to_all_protected_branches" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."approval_project_settings" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"approvals_before_merge" integer DEFAULT 0 NOT NULL,
	"reset_approvals_on_push" boolean DEFAULT true NOT NULL,
	"selective_code_owner_removals" boolean DEFAULT false NOT NULL,
	"disable_overriding_approvers_per_merge_request" boolean DEFAULT false NOT NULL,
	"merge_requests_author_approval" boolean DEFAULT false NOT NULL,
	"merge_requests_disable_committers_approval" boolean DEFAULT false NOT NULL,
	"require_reauthentication_to_approve" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merge_requests"."approvals" ALTER COLUMN "created_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "merge_requests"."approvals" ALTER COLUMN "created_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "merge_requests"."approval_merge_request_rule_groups" ADD CONSTRAINT "approval_merge_request_rule_groups_rule_id_approval_merge_request_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "merge_requests"."approval_merge_request_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests"."approval_merge_request_rule_users" ADD CONSTRAINT "approval_merge_request_rule_users_rule_id_approval_merge_request_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "merge_requests"."approval_merge_request_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests"."approval_merge_request_rules" ADD CONSTRAINT "approval_merge_request_rules_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests"."approval_merge_request_rules" ADD CONSTRAINT "approval_merge_request_rules_approval_project_rule_id_approval_project_rules_id_fk" FOREIGN KEY ("approval_project_rule_id") REFERENCES "merge_requests"."approval_project_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests"."approval_project_rule_groups" ADD CONSTRAINT "approval_project_rule_groups_rule_id_approval_project_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "merge_requests"."approval_project_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests"."approval_project_rule_protected_branches" ADD CONSTRAINT "approval_project_rule_protected_branches_rule_id_approval_project_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "merge_requests"."approval_project_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests"."approval_project_rule_users" ADD CONSTRAINT "approval_project_rule_users_rule_id_approval_project_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "merge_requests"."approval_project_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_mr_rules_mr_idx" ON "merge_requests"."approval_merge_request_rules" USING btree ("merge_request_id","id");--> statement-breakpoint
CREATE INDEX "approval_project_rule_pb_idx" ON "merge_requests"."approval_project_rule_protected_branches" USING btree ("protected_branch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_project_rules_project_name_idx" ON "merge_requests"."approval_project_rules" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "approval_project_rules_project_idx" ON "merge_requests"."approval_project_rules" USING btree ("project_id","id");--> statement-breakpoint
ALTER TABLE "merge_requests"."approvals" ADD CONSTRAINT "approvals_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;