CREATE TABLE `submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`participant` text NOT NULL,
	`task` text NOT NULL,
	`model` text NOT NULL,
	`patch` text NOT NULL,
	`patch_sha256` text NOT NULL,
	`patch_bytes` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`claim` text,
	`claimed_at` integer,
	`completed_at` integer,
	`run` text,
	`reason` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `submissions_run_unique` ON `submissions` (`run`);--> statement-breakpoint
CREATE INDEX `submissions_status_created` ON `submissions` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `submissions_participant_created` ON `submissions` (`participant`,`created_at`);--> statement-breakpoint
ALTER TABLE `participants` ADD `submissions_per_day` integer DEFAULT 50 NOT NULL;