CREATE TABLE "sign_in_refusals" (
	"user_id" uuid NOT NULL,
	"client" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "sign_in_refusals_user_id_client_minute_pk" PRIMARY KEY("user_id","client","minute")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "privacy_notice_en" text;--> statement-breakpoint
ALTER TABLE "sign_in_refusals" ADD CONSTRAINT "sign_in_refusals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;