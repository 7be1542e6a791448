-- The tokens of an OAuth flow whose authorisation reaches several sites (Jira: accessible-resources), kept
-- encrypted until the linked user chooses one on the connect page.
ALTER TABLE "oauth_flows" ADD COLUMN "pending_encrypted" text;