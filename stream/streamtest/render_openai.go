package streamtest

// This file renders the OpenAI-shaped personalities: OpenAI itself, Ollama
// (whose converter follows OpenAI's events, with its own ids, echoes and
// reasoning) and LM Studio (reasoning as reasoning_text parts, data: lines
// only). Each event carries the fields its server's recordings carry, no
// more: personality_test.go compares them with the fixtures.

import (
	"encoding/base64"
	"strconv"
)

const createdAt = 1795750000

// renderOpenAI: named events, sequence numbers, reasoning as summary parts
// (encrypted_content when the request includes it), obfuscation on deltas.
func renderOpenAI(r *rendering) rendered {
	g := r.ids
	id := "resp_" + g.token(hexDigits, 50)
	response := func(status string, output []obj, done bool) obj {
		o := obj{"id": id, "object": "response", "created_at": createdAt, "status": status, "background": false,
			"completed_at": nil, "error": nil, "frequency_penalty": 0.0, "incomplete_details": nil, "instructions": nil,
			"max_output_tokens": nil, "max_tool_calls": nil, "model": r.Model, "moderation": nil, "output": anys(output),
			"parallel_tool_calls": true, "presence_penalty": 0.0, "previous_response_id": nullable(r.Previous),
			"prompt_cache_key": nil, "prompt_cache_retention": "in_memory", "reasoning": obj{"effort": "medium", "summary": "detailed"},
			"safety_identifier": nil, "service_tier": "auto", "store": r.Store, "temperature": 1.0,
			"text": obj{"format": obj{"type": "text"}, "verbosity": "medium"}, "tool_choice": "auto", "tools": []any{},
			"top_logprobs": 0, "top_p": 1.0, "truncation": "disabled", "usage": nil, "user": nil, "metadata": obj{}}
		if done {
			o["completed_at"], o["usage"] = createdAt+1, usage(r.Out)
		}
		return o
	}
	w := &sseWriter{named: true}
	obfuscation := func() string { return g.token(mixedAlnum, 10) }
	w.emit("response.created", obj{"response": response("in_progress", nil, false)})
	w.emit("response.in_progress", obj{"response": response("in_progress", nil, false)})
	var output []obj
	if text := r.Out.Reasoning; text != "" {
		oi, itemID := len(output), "rs_"+g.token(hexDigits, 50)
		item := func(summary []any) obj {
			it := obj{"id": itemID, "type": "reasoning", "content": []any{}, "summary": summary}
			if r.includes("reasoning.encrypted_content") {
				it["encrypted_content"] = "gAAAAAB" + base64.StdEncoding.EncodeToString([]byte("streamtest reasoning: "+text))
			}
			return it
		}
		part := func(t string) obj { return obj{"type": "summary_text", "text": t} }
		w.emit("response.output_item.added", obj{"output_index": oi, "item": item([]any{})})
		w.emit("response.reasoning_summary_part.added", obj{"item_id": itemID, "output_index": oi, "summary_index": 0, "part": part("")})
		for _, d := range pieces(text) {
			w.emit("response.reasoning_summary_text.delta", obj{"item_id": itemID, "output_index": oi, "summary_index": 0, "delta": d, "obfuscation": obfuscation()})
		}
		w.emit("response.reasoning_summary_text.done", obj{"item_id": itemID, "output_index": oi, "summary_index": 0, "text": text})
		w.emit("response.reasoning_summary_part.done", obj{"item_id": itemID, "output_index": oi, "summary_index": 0, "part": part(text)})
		done := item([]any{part(text)})
		w.emit("response.output_item.done", obj{"output_index": oi, "item": done})
		output = append(output, done)
	}
	if text := r.Out.Text; text != "" {
		oi, itemID := len(output), "msg_"+g.token(hexDigits, 50)
		part := func(t string) obj {
			return obj{"type": "output_text", "annotations": []any{}, "logprobs": []any{}, "text": t}
		}
		item := func(status string, content []any) obj {
			return obj{"id": itemID, "type": "message", "status": status, "content": content, "role": "assistant"}
		}
		w.emit("response.output_item.added", obj{"output_index": oi, "item": item("in_progress", []any{})})
		w.emit("response.content_part.added", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "part": part("")})
		for _, d := range pieces(text) {
			w.emit("response.output_text.delta", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "delta": d, "logprobs": []any{}, "obfuscation": obfuscation()})
		}
		w.emit("response.output_text.done", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "text": text, "logprobs": []any{}})
		w.emit("response.content_part.done", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "part": part(text)})
		done := item("completed", []any{part(text)})
		w.emit("response.output_item.done", obj{"output_index": oi, "item": done})
		output = append(output, done)
	}
	for _, c := range r.Out.Calls {
		oi, itemID, callID := len(output), "fc_"+g.token(hexDigits, 50), "call_"+g.token(mixedAlnum, 24)
		item := func(status, args string) obj {
			return obj{"id": itemID, "type": "function_call", "status": status, "arguments": args, "call_id": callID, "name": c.Name}
		}
		w.emit("response.output_item.added", obj{"output_index": oi, "item": item("in_progress", "")})
		for _, d := range pieces(c.Arguments) {
			w.emit("response.function_call_arguments.delta", obj{"item_id": itemID, "output_index": oi, "delta": d, "obfuscation": obfuscation()})
		}
		w.emit("response.function_call_arguments.done", obj{"item_id": itemID, "output_index": oi, "arguments": c.Arguments})
		done := item("completed", c.Arguments)
		w.emit("response.output_item.done", obj{"output_index": oi, "item": done})
		output = append(output, done)
	}
	w.emit("response.completed", obj{"response": response("completed", output, true)})
	return rendered{SSE: w.b.Bytes(), ID: id, Output: raws(output)}
}

// renderOllama: Ollama's converter (Go maps, keys sorted), short numeric
// ids, store: false and previous_response_id: null whatever was asked,
// created_at on every response object, reasoning as summary text deltas
// with no summary_part events and encrypted_content holding the plain
// thinking, a call's whole arguments in one delta.
func renderOllama(r *rendering) rendered {
	g := r.ids
	id := "resp_" + g.number(6)
	response := func(status string, output []obj, done bool) obj {
		o := obj{"background": false, "completed_at": nil, "created_at": createdAt, "error": nil, "frequency_penalty": 0,
			"id": id, "incomplete_details": nil, "instructions": nil, "max_output_tokens": nil, "max_tool_calls": nil,
			"metadata": obj{}, "model": r.Model, "object": "response", "output": anys(output), "parallel_tool_calls": true,
			"presence_penalty": 0, "previous_response_id": nil, "prompt_cache_key": nil, "reasoning": nil,
			"safety_identifier": nil, "service_tier": "default", "status": status, "store": false, "temperature": 1,
			"text": obj{"format": obj{"type": "text"}}, "tool_choice": "auto", "tools": []any{}, "top_logprobs": 0,
			"top_p": 1, "truncation": "disabled", "usage": nil}
		if done {
			o["completed_at"], o["usage"] = createdAt, usage(r.Out)
		}
		return o
	}
	w := &sseWriter{named: true}
	w.emit("response.created", obj{"response": response("in_progress", nil, false)})
	w.emit("response.in_progress", obj{"response": response("in_progress", nil, false)})
	var output []obj
	if text := r.Out.Reasoning; text != "" {
		oi, itemID := len(output), "rs_"+g.number(6)
		w.emit("response.output_item.added", obj{"output_index": oi, "item": obj{"id": itemID, "summary": []any{}, "type": "reasoning"}})
		for _, d := range pieces(text) {
			w.emit("response.reasoning_summary_text.delta", obj{"delta": d, "item_id": itemID, "output_index": oi, "summary_index": 0})
		}
		w.emit("response.reasoning_summary_text.done", obj{"item_id": itemID, "output_index": oi, "summary_index": 0, "text": text})
		done := obj{"encrypted_content": text, "id": itemID, "summary": []any{obj{"text": text, "type": "summary_text"}}, "type": "reasoning"}
		w.emit("response.output_item.done", obj{"output_index": oi, "item": done})
		output = append(output, done)
	}
	if text := r.Out.Text; text != "" {
		oi, itemID := len(output), "msg_"+g.number(5)
		part := func(t string) obj {
			return obj{"annotations": []any{}, "logprobs": []any{}, "text": t, "type": "output_text"}
		}
		item := func(status string, content []any) obj {
			return obj{"content": content, "id": itemID, "role": "assistant", "status": status, "type": "message"}
		}
		w.emit("response.output_item.added", obj{"output_index": oi, "item": item("in_progress", []any{})})
		w.emit("response.content_part.added", obj{"content_index": 0, "item_id": itemID, "output_index": oi, "part": part("")})
		for _, d := range pieces(text) {
			w.emit("response.output_text.delta", obj{"content_index": 0, "delta": d, "item_id": itemID, "logprobs": []any{}, "output_index": oi})
		}
		w.emit("response.output_text.done", obj{"content_index": 0, "item_id": itemID, "logprobs": []any{}, "output_index": oi, "text": text})
		w.emit("response.content_part.done", obj{"content_index": 0, "item_id": itemID, "output_index": oi, "part": part(text)})
		done := item("completed", []any{part(text)})
		w.emit("response.output_item.done", obj{"output_index": oi, "item": done})
		output = append(output, done)
	}
	callBase := g.number(5)
	for i, c := range r.Out.Calls {
		oi, itemID, callID := len(output), "fc_"+callBase+"_"+strconv.Itoa(i), "call_"+g.token(lowerAlnum, 8)
		item := func(status, args string) obj {
			return obj{"arguments": args, "call_id": callID, "id": itemID, "name": c.Name, "status": status, "type": "function_call"}
		}
		w.emit("response.output_item.added", obj{"output_index": oi, "item": item("in_progress", "")})
		w.emit("response.function_call_arguments.delta", obj{"delta": c.Arguments, "item_id": itemID, "output_index": oi})
		w.emit("response.function_call_arguments.done", obj{"arguments": c.Arguments, "item_id": itemID, "output_index": oi})
		done := item("completed", c.Arguments)
		w.emit("response.output_item.done", obj{"output_index": oi, "item": done})
		output = append(output, done)
	}
	w.emit("response.completed", obj{"response": response("completed", output, true)})
	return rendered{SSE: w.b.Bytes(), ID: id, Output: raws(output)}
}

// renderLMStudio: data: lines only, sequence numbers, reasoning as a
// reasoning_text content part, logprobs on text events, a call's
// arguments in arguments.done alone; previous_response_id and store echoed.
func renderLMStudio(r *rendering) rendered {
	g := r.ids
	id := "resp_" + g.token(hexDigits, 48)
	response := func(status string, output []obj, done bool) obj {
		o := obj{"id": id, "object": "response", "created_at": createdAt, "completed_at": nil, "status": status,
			"incomplete_details": nil, "model": r.Model, "previous_response_id": nullable(r.Previous), "instructions": nil,
			"output": anys(output), "error": nil, "tools": []any{}, "tool_choice": "auto", "truncation": "auto",
			"parallel_tool_calls": true, "text": obj{"format": obj{"type": "text"}}, "top_p": 0.95, "presence_penalty": 0,
			"frequency_penalty": 0, "top_logprobs": 0, "temperature": 0.8, "reasoning": obj{"summary": nil, "effort": nil},
			"usage": nil, "max_output_tokens": nil, "max_tool_calls": nil, "store": r.Store, "background": false,
			"service_tier": "default", "metadata": obj{}, "safety_identifier": nil, "prompt_cache_key": nil}
		if done {
			o["completed_at"], o["usage"] = createdAt+1, usage(r.Out)
		}
		return o
	}
	w := &sseWriter{}
	w.emit("response.created", obj{"response": response("in_progress", nil, false)})
	w.emit("response.in_progress", obj{"response": response("in_progress", nil, false)})
	var output []obj
	if text := r.Out.Reasoning; text != "" {
		oi, itemID := len(output), "rs_"+g.token(lowerAlnum, 21)
		part := func(t string) obj { return obj{"type": "reasoning_text", "text": t} }
		w.emit("response.output_item.added", obj{"output_index": oi, "item": obj{"id": itemID, "type": "reasoning", "status": "in_progress", "summary": []any{}, "content": []any{}}})
		w.emit("response.content_part.added", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "part": part("")})
		for _, d := range pieces(text) {
			w.emit("response.reasoning_text.delta", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "delta": d})
		}
		w.emit("response.reasoning_text.done", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "text": text})
		w.emit("response.content_part.done", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "part": part(text)})
		done := obj{"id": itemID, "type": "reasoning", "status": "completed", "summary": []any{}, "content": []any{part(text)}}
		w.emit("response.output_item.done", obj{"output_index": oi, "item": done})
		output = append(output, done)
	}
	if text := r.Out.Text; text != "" {
		oi, itemID := len(output), "msg_"+g.token(lowerAlnum, 22)
		part := func(t string) obj {
			return obj{"type": "output_text", "text": t, "annotations": []any{}, "logprobs": []any{}}
		}
		item := func(status string, content []any) obj {
			return obj{"id": itemID, "type": "message", "status": status, "content": content, "role": "assistant"}
		}
		w.emit("response.output_item.added", obj{"output_index": oi, "item": item("in_progress", []any{})})
		w.emit("response.content_part.added", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "part": part("")})
		for _, d := range pieces(text) {
			w.emit("response.output_text.delta", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "delta": d, "logprobs": []any{}})
		}
		w.emit("response.output_text.done", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "text": text, "logprobs": []any{}})
		w.emit("response.content_part.done", obj{"item_id": itemID, "output_index": oi, "content_index": 0, "part": part(text)})
		done := item("completed", []any{part(text)})
		w.emit("response.output_item.done", obj{"output_index": oi, "item": done})
		output = append(output, done)
	}
	for _, c := range r.Out.Calls {
		oi, itemID, callID := len(output), "fc_"+g.token(lowerAlnum, 22), "call_"+g.number(16)
		item := func(status, args string) obj {
			return obj{"id": itemID, "type": "function_call", "status": status, "arguments": args, "call_id": callID, "name": c.Name}
		}
		w.emit("response.output_item.added", obj{"output_index": oi, "item": item("in_progress", "")})
		w.emit("response.function_call_arguments.done", obj{"item_id": itemID, "output_index": oi, "arguments": c.Arguments})
		done := item("completed", c.Arguments)
		w.emit("response.output_item.done", obj{"output_index": oi, "item": done})
		output = append(output, done)
	}
	w.emit("response.completed", obj{"response": response("completed", output, true)})
	return rendered{SSE: w.b.Bytes(), ID: id, Output: raws(output)}
}
