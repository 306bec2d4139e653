CREATE TABLE `worlds` (
	`id` text PRIMARY KEY NOT NULL,
	`task` text,
	`seed` integer NOT NULL,
	`roles` text NOT NULL,
	`created_at` integer NOT NULL
);
