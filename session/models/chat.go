package models

import "strings"

// A provider's list (GET /models) holds every model it serves, and many of
// them cannot chat through the Responses API: embeddings, speech (tts,
// whisper, transcribe, audio), image and video generation (dall-e, image,
// sora), moderation, the realtime models and the legacy completion models.
// /model, its completion and `runnel models` offer the chat models as such
// and keep the others apart (the picker and the completion leave them out,
// `runnel models` lists them in a group of their own). A name is never
// refused: whatever is typed is sent.

// notChatWords are the words of a model id (split at -, _, ., / and :)
// that mark a model as not for chat. "embed" also catches "embedding" and
// the local servers' "nomic-embed-text"; "dall" is dall-e's.
var notChatWords = map[string]bool{
	"embed": true, "embedding": true, "embeddings": true,
	"tts": true, "whisper": true, "transcribe": true, "audio": true,
	"dall": true, "image": true, "sora": true,
	"moderation": true, "realtime": true,
	"babbage": true, "davinci": true,
}

// Chat reports whether id names a model that chats, as far as its name
// tells: false for embedding, speech, image, moderation, realtime and
// legacy completion models (see notChatWords), true for anything else,
// including names runnel has never seen.
func Chat(id string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(id), func(r rune) bool {
		return r == '-' || r == '_' || r == '.' || r == '/' || r == ':'
	}) {
		if notChatWords[w] {
			return false
		}
	}
	return true
}

// SplitChat sorts ids into the chat models and the others, each in the
// order given. keep (the configured model) always counts as chat: it was
// asked for by name.
func SplitChat(ids []string, keep string) (chat, other []string) {
	for _, id := range ids {
		if id == keep || Chat(id) {
			chat = append(chat, id)
		} else {
			other = append(other, id)
		}
	}
	return chat, other
}
