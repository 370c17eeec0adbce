package models_test

import (
	"slices"
	"testing"

	"runnel/session/models"
)

// TestChat sorts a provider's list as OpenAI's /models gives it (and a
// local server's): embeddings, speech, images, moderation, realtime and
// the legacy completion models are not for chat; every model that answers
// the Responses API is, and so is a name runnel has never seen.
func TestChat(t *testing.T) {
	notChat := []string{
		"text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002", "nomic-embed-text:latest", "mxbai-embed-large",
		"tts-1", "tts-1-hd", "gpt-4o-mini-tts", "whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe", "gpt-4o-audio-preview", "gpt-audio",
		"dall-e-2", "dall-e-3", "gpt-image-1", "sora-2", "omni-moderation-latest", "text-moderation-latest",
		"gpt-4o-realtime-preview-2024-12-17", "gpt-realtime", "babbage-002", "davinci-002",
	}
	chat := []string{
		"gpt-5", "gpt-5-mini", "gpt-5-2025-08-07", "gpt-5.4-nano", "gpt-5-codex", "gpt-4.1", "gpt-4o", "chatgpt-4o-latest", "o3", "o4-mini",
		"codex-mini-latest", "computer-use-preview", "llama3.1:8b", "qwen3:8b", "openai/gpt-oss-20b", "my-finetune", "",
	}
	for _, id := range notChat {
		if models.Chat(id) {
			t.Errorf("%q is taken for a chat model", id)
		}
	}
	for _, id := range chat {
		if !models.Chat(id) {
			t.Errorf("%q is not taken for a chat model", id)
		}
	}
	// the configured model is kept whatever its name; the order stays
	c, o := models.SplitChat([]string{"gpt-5", "tts-1", "text-embedding-3-small", "o3", "whisper-1"}, "whisper-1")
	if !slices.Equal(c, []string{"gpt-5", "o3", "whisper-1"}) || !slices.Equal(o, []string{"tts-1", "text-embedding-3-small"}) {
		t.Errorf("split %v / %v", c, o)
	}
}
