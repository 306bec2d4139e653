CREATE TABLE `__new_evidence` (
	`run_id` text NOT NULL,
	`position` integer NOT NULL,
	`part` integer NOT NULL,
	`scenario` text NOT NULL,
	`json` text NOT NULL,
	PRIMARY KEY(`run_id`, `position`, `part`)
);
--> statement-breakpoint
INSERT INTO `__new_evidence`("run_id", "position", "part", "scenario", "json") SELECT "run_id", "position", 0, "scenario", "json" FROM `evidence`;--> statement-breakpoint
DROP TABLE `evidence`;--> statement-breakpoint
ALTER TABLE `__new_evidence` RENAME TO `evidence`;
