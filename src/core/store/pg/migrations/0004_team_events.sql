-- Team server only: an event too large for a NOTIFY payload (under 8000 bytes) travels as a row here,
-- and the notification carries its id. Every process reads it; rows are swept after ten minutes.
CREATE TABLE team_event_payloads (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  envelope TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
