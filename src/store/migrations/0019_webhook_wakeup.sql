-- Webhook senders (src/events/dispatcher.ts) wake as soon as deliveries are written, in whichever process,
-- instead of at their next poll: one notification per inserting statement, delivered at commit.
CREATE FUNCTION omniport_deliveries_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('omniport_deliveries', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_wakeup AFTER INSERT ON webhook_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION omniport_deliveries_notify();
