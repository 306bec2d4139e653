CREATE TABLE `participants` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`worlds_per_day` integer NOT NULL,
	`live_worlds` integer NOT NULL,
	`requests_per_world` integer NOT NULL,
	`world_ttl_s` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `participants_key_hash_unique` ON `participants` (`key_hash`);--> statement-breakpoint
ALTER TABLE `runs` ADD `participant` text;--> statement-breakpoint
ALTER TABLE `worlds` ADD `release` text DEFAULT 'r0' NOT NULL;--> statement-breakpoint
ALTER TABLE `worlds` ADD `declaration_hash` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `worlds` ADD `plan` text;--> statement-breakpoint
ALTER TABLE `worlds` ADD `participant` text;--> statement-breakpoint
ALTER TABLE `worlds` ADD `expires_at` integer;--> statement-breakpoint
ALTER TABLE `worlds` ADD `ended_at` integer;--> statement-breakpoint
ALTER TABLE `worlds` ADD `end_reason` text;