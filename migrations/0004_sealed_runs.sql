ALTER TABLE `runs` ADD `self_reported` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `worlds` ADD `sealed_run` text;