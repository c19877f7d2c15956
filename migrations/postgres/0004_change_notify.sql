-- Push every change-feed entry to listening edges at once (LISTEN vitrine_changes).
-- The payload is the entry's id; the table stays the truth, so a missed notification only
-- delays an edge until its next poll.
CREATE FUNCTION vitrine_notify_change() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('vitrine_changes', NEW.id::text);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER changes_notify AFTER INSERT ON changes
    FOR EACH ROW EXECUTE FUNCTION vitrine_notify_change();
