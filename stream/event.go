package stream

import (
	"encoding/json"
	"strings"
)

// Kind classifies an event. The JSON `type` string is authoritative; Kind is
// its decoded meaning, with aliases (the Open Responses and OpenAI names for
// the same thing) folded together.
type Kind uint8

const (
	KindUnknown Kind = iota // a type runnel does not know; kept with its raw JSON
	KindInvalid             // a malformed event, skipped; Err says why
	KindDone                // data: [DONE]

	// Lifecycle.
	KindCreated
	KindQueued
	KindInProgress
	KindCompleted
	KindIncomplete
	KindFailed
	KindError // the `error` event

	// Items and parts.
	KindItemAdded
	KindItemDone
	KindPartAdded
	KindPartDone

	// Text.
	KindTextDelta
	KindTextDone
	KindAnnotationAdded
	KindRefusalDelta
	KindRefusalDone

	// Reasoning.
	KindReasoningDelta // reasoning_text.delta and reasoning.delta
	KindReasoningDone
	KindSummaryPartAdded
	KindSummaryPartDone
	KindSummaryDelta
	KindSummaryDone

	// Tool-call payloads.
	KindArgsDelta // function_call_arguments.delta
	KindArgsDone
	KindCustomInputDelta
	KindCustomInputDone
	KindMCPArgsDelta
	KindMCPArgsDone
	KindCodeDelta // code_interpreter_call_code.delta
	KindCodeDone
	KindToolProgress // <tool>_call.in_progress / searching / interpreting / generating / completed / failed; Status holds the phase
	KindPartialImage
	KindShellCommandAdded
	KindShellCommandDelta
	KindShellCommandDone
	KindShellOutputDelta
	KindShellOutputDone
	KindPatchDiffDelta
	KindPatchDiffDone
	KindAudio // response.audio.delta / done: sound runnel does not play; its bytes are not kept

	kindCount
)

var kindNames = [kindCount]string{
	"unknown", "invalid", "done",
	"created", "queued", "in_progress", "completed", "incomplete", "failed", "error",
	"item_added", "item_done", "part_added", "part_done",
	"text_delta", "text_done", "annotation_added", "refusal_delta", "refusal_done",
	"reasoning_delta", "reasoning_done", "summary_part_added", "summary_part_done", "summary_delta", "summary_done",
	"args_delta", "args_done", "custom_input_delta", "custom_input_done", "mcp_args_delta", "mcp_args_done",
	"code_delta", "code_done", "tool_progress", "partial_image",
	"shell_command_added", "shell_command_delta", "shell_command_done", "shell_output_delta", "shell_output_done",
	"patch_diff_delta", "patch_diff_done", "audio",
}

func (k Kind) String() string {
	if k < kindCount {
		return kindNames[k]
	}
	return "kind?"
}

// IsDelta reports whether events of this kind carry an incremental Delta.
func (k Kind) IsDelta() bool {
	switch k {
	case KindTextDelta, KindRefusalDelta, KindReasoningDelta, KindSummaryDelta,
		KindArgsDelta, KindCustomInputDelta, KindMCPArgsDelta, KindCodeDelta,
		KindShellCommandDelta, KindPatchDiffDelta:
		return true
	}
	return false
}

// IsTerminal reports whether the kind ends a response.
func (k Kind) IsTerminal() bool {
	return k == KindCompleted || k == KindIncomplete || k == KindFailed
}

var kindByType = map[string]Kind{
	"response.created":     KindCreated,
	"response.queued":      KindQueued,
	"response.in_progress": KindInProgress,
	"response.completed":   KindCompleted,
	"response.incomplete":  KindIncomplete,
	"response.failed":      KindFailed,
	"error":                KindError,
	"response.error":       KindError,

	"response.output_item.added":  KindItemAdded,
	"response.output_item.done":   KindItemDone,
	"response.content_part.added": KindPartAdded,
	"response.content_part.done":  KindPartDone,

	"response.output_text.delta":            KindTextDelta,
	"response.output_text.done":             KindTextDone,
	"response.output_text.annotation.added": KindAnnotationAdded,
	"response.output_text_annotation.added": KindAnnotationAdded,
	"response.refusal.delta":                KindRefusalDelta,
	"response.refusal.done":                 KindRefusalDone,

	"response.reasoning_text.delta":             KindReasoningDelta,
	"response.reasoning_text.done":              KindReasoningDone,
	"response.reasoning.delta":                  KindReasoningDelta,
	"response.reasoning.done":                   KindReasoningDone,
	"response.reasoning_summary_part.added":     KindSummaryPartAdded,
	"response.reasoning_summary_part.done":      KindSummaryPartDone,
	"response.reasoning_summary_text.delta":     KindSummaryDelta,
	"response.reasoning_summary_text.done":      KindSummaryDone,
	"response.reasoning_summary.delta":          KindSummaryDelta,
	"response.reasoning_summary.done":           KindSummaryDone,
	"response.function_call_arguments.delta":    KindArgsDelta,
	"response.function_call_arguments.done":     KindArgsDone,
	"response.custom_tool_call_input.delta":     KindCustomInputDelta,
	"response.custom_tool_call_input.done":      KindCustomInputDone,
	"response.mcp_call_arguments.delta":         KindMCPArgsDelta,
	"response.mcp_call_arguments.done":          KindMCPArgsDone,
	"response.mcp_call.arguments.delta":         KindMCPArgsDelta,
	"response.mcp_call.arguments.done":          KindMCPArgsDone,
	"response.code_interpreter_call_code.delta": KindCodeDelta,
	"response.code_interpreter_call_code.done":  KindCodeDone,
	"response.code_interpreter_call.code.delta": KindCodeDelta,
	"response.code_interpreter_call.code.done":  KindCodeDone,

	"response.image_generation_call.partial_image":   KindPartialImage,
	"response.shell_call_command.added":              KindShellCommandAdded,
	"response.shell_call_command.delta":              KindShellCommandDelta,
	"response.shell_call_command.done":               KindShellCommandDone,
	"response.shell_call_output_content.delta":       KindShellOutputDelta,
	"response.shell_call_output_content.done":        KindShellOutputDone,
	"response.apply_patch_call_operation_diff.delta": KindPatchDiffDelta,
	"response.apply_patch_call_operation_diff.done":  KindPatchDiffDone,

	// Audio output: the transcript is the message's text; the sound is
	// skipped (AudioSkippedNote).
	"response.audio.transcript.delta":        KindTextDelta,
	"response.audio.transcript.done":         KindTextDone,
	"response.output_audio_transcript.delta": KindTextDelta,
	"response.output_audio_transcript.done":  KindTextDone,
	"response.audio.delta":                   KindAudio,
	"response.audio.done":                    KindAudio,
	"response.output_audio.delta":            KindAudio,
	"response.output_audio.done":             KindAudio,
}

// toolPhases are the last segments of `response.<tool>.<phase>` progress
// events; any tool, known or future, reports progress this way.
var toolPhases = map[string]bool{
	"in_progress": true, "searching": true, "interpreting": true, "generating": true,
	"completed": true, "failed": true, "incomplete": true, "calling": true,
}

// kindOf maps a type string to its Kind, and for tool progress events also
// returns the phase.
func kindOf(t string) (Kind, string) {
	if k, ok := kindByType[t]; ok {
		return k, ""
	}
	// response.web_search_call.searching, response.mcp_list_tools.completed, …
	if rest, ok := strings.CutPrefix(t, "response."); ok {
		if i := strings.LastIndexByte(rest, '.'); i > 0 {
			tool, phase := rest[:i], rest[i+1:]
			if toolPhases[phase] && (strings.HasSuffix(tool, "_call") || strings.HasPrefix(tool, "mcp_")) && !strings.Contains(tool, ".") {
				return KindToolProgress, phase
			}
		}
	}
	return KindUnknown, ""
}

// Event is one decoded stream event. Fields that the event's type does not use
// are zero. Slices and pointers are owned by the event.
type Event struct {
	Kind Kind
	Type string // the authoritative type: JSON `type`, else the SSE event name

	Seq         int64 // sequence_number; meaningful only if HasSeq
	HasSeq      bool
	OutputIndex int // output_index; meaningful only if HasIndex
	HasIndex    bool
	ItemID      string

	ContentIndex    int
	SummaryIndex    int
	AnnotationIndex int // -1 when the event did not say (append)
	CommandIndex    int

	Delta    string          // string deltas
	DeltaRaw json.RawMessage // a delta that is not a string (shell output)
	Text     string          // a .done value: text, arguments, input, code, diff, command or refusal
	HasText  bool            // the .done event carried its value
	Status   string          // KindToolProgress: the phase

	Item         *Item           // output_item.added / done
	Part         *Part           // content_part / summary_part added / done
	Annotation   json.RawMessage // annotation.added
	Response     *Response       // lifecycle events
	Error        *ErrorInfo      // the `error` event
	Output       json.RawMessage // shell output done
	PartialImage string          // base64, KindPartialImage
	ImageIndex   int             // partial_image_index
	Raw          json.RawMessage // the whole payload, for unknown and invalid events
	Note         string          // a warning about how the event was read (BareResponseNote), for the consumer to show once; the event applies as usual

	Num    int   // 1-based event number in the stream
	Offset int64 // byte offset of the event in the stream
	Err    error // KindInvalid: why the event was skipped
}
