CREATE TABLE `evidence` (
	`run_id` text NOT NULL,
	`position` integer NOT NULL,
	`scenario` text NOT NULL,
	`json` text NOT NULL,
	PRIMARY KEY(`run_id`, `position`)
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`task` text NOT NULL,
	`seed` integer NOT NULL,
	`world` text NOT NULL,
	`error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `verdicts` (
	`run_id` text PRIMARY KEY NOT NULL,
	`score` real NOT NULL,
	`solved` integer NOT NULL,
	`json` text NOT NULL,
	`graded_at` integer NOT NULL
);
