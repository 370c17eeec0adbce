-- A history written by schema version 1: sessions, turns and raw items; no
-- search index, no owners. TestMigrateV1 loads this into an empty file and
-- opens it.
CREATE TABLE sessions (
	id       TEXT PRIMARY KEY,
	title    TEXT NOT NULL DEFAULT '',
	created  INTEGER NOT NULL,
	updated  INTEGER NOT NULL,
	settings TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE turns (
	id         INTEGER PRIMARY KEY,
	session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL,
	prompt     TEXT NOT NULL DEFAULT '',
	input      BLOB NOT NULL DEFAULT '[]',
	previous_response_id TEXT NOT NULL DEFAULT '',
	response_ids TEXT NOT NULL DEFAULT '[]',
	status     TEXT NOT NULL,
	usage      BLOB,
	error      TEXT NOT NULL DEFAULT '',
	started    INTEGER NOT NULL,
	ended      INTEGER,
	UNIQUE (session_id, seq)
);
CREATE TABLE items (
	id           INTEGER PRIMARY KEY,
	turn_id      INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
	response_idx INTEGER NOT NULL,
	output_idx   INTEGER NOT NULL,
	raw          BLOB NOT NULL,
	done         INTEGER NOT NULL DEFAULT 0,
	UNIQUE (turn_id, response_idx, output_idx)
);
CREATE INDEX sessions_updated ON sessions(updated);

INSERT INTO sessions VALUES
	('00qhd2a5x7', 'explain rust lifetimes', 1740000000000, 1740000300000, '{"model":"gpt-4.1","instructions":"Be brief.","tools":[{"type":"function","name":"get_weather"}]}'),
	('00qhd3b9k2', '', 1740000100000, 1740000100000, '{}');

INSERT INTO turns VALUES
	(1, '00qhd2a5x7', 1, 'explain rust lifetimes',
	 '[{"type":"message","role":"user","content":[{"type":"input_text","text":"explain rust lifetimes"}]}]',
	 '', '["resp_1"]', 'completed', '{"input_tokens":12,"output_tokens":80,"total_tokens":92}', '', 1740000000000, 1740000010000),
	(2, '00qhd2a5x7', 2, 'what''s the weather in Paris?',
	 '[{"type":"message","role":"user","content":[{"type":"input_text","text":"what''s the weather in Paris?"}]}]',
	 'resp_1', '["resp_2"]', 'completed', NULL, '', 1740000100000, 1740000110000),
	(3, '00qhd2a5x7', 3, '',
	 '[{"type":"function_call_output","call_id":"call_1","output":"18C and sunny, light breeze"}]',
	 'resp_2', '["resp_3"]', 'completed', NULL, '', 1740000120000, 1740000130000),
	(4, '00qhd2a5x7', 4, 'and tomorrow?',
	 '[{"type":"message","role":"user","content":[{"type":"input_text","text":"and tomorrow?"}]}]',
	 'resp_3', '[]', 'streaming', NULL, '', 1740000200000, NULL);

INSERT INTO items VALUES
	(1, 1, 0, 0, '{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Recalling how the borrow checker reasons about scopes."}],"encrypted_content":"gAAAAB-opaque"}', 1),
	(2, 1, 0, 1, '{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"text":"Lifetimes tell the borrow checker how long references stay valid.\n\nThey are mostly inferred."}]}', 1),
	(3, 2, 0, 0, '{"id":"fc_1","type":"function_call","status":"completed","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}"}', 1),
	(4, 3, 0, 0, '{"id":"msg_3","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"text":"It is 18°C and sunny in Paris."}]}', 1),
	(5, 4, 0, 0, '{"id":"msg_4","type":"message","status":"in_progress","role":"assistant","content":[{"type":"output_text","annotations":[],"text":"Tomorrow looks"}]}', 0);

PRAGMA user_version = 1;
