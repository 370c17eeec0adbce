package streamtest

// This file renders the servers whose streams stray furthest from OpenAI's:
// vLLM (gpt-oss), llama.cpp's llama-server and a gateway that answers a
// stream with one bare Response object. Each event carries the fields its
// server's recordings (or its code) carry; personality_test.go compares them
// with the fixtures.

// renderVLLM: named events with sequence numbers; reasoning_part events; a
// content_index counter that runs on across items (the message's only
// part is at 1 after a reasoning item); a done function_call with id null
// and item_id, output_index and sequence_number -1 inside it; a terminal
// response listing the items under new ids and the call under a new
// call_id, which is what vLLM stores. previous_response_id is echoed; there
// is no store field.
func renderVLLM(r *rendering) rendered {
	g := r.ids
	id := "resp_" + g.token(hexDigits, 16)
	response := func(status string, output []obj, done bool) obj {
		o := obj{"id": id, "created_at": createdAt, "incomplete_details": nil, "instructions": nil, "metadata": nil,
			"model": r.Model, "object": "response", "output": anys(output), "parallel_tool_calls": true, "temperature": 1.0,
			"tool_choice": "auto", "tools": []any{}, "top_p": 1.0, "background": false, "max_output_tokens": 4096,
			"max_tool_calls": nil, "previous_response_id": nullable(r.Previous), "prompt": nil, "reasoning": nil,
			"service_tier": "auto", "status": status, "text": nil, "top_logprobs": nil, "truncation": "disabled",
			"usage": nil, "user": nil, "presence_penalty": 0.0, "frequency_penalty": 0.0, "kv_transfer_params": nil,
			"input_messages": nil, "output_messages": nil}
		if done {
			o["usage"] = usage(r.Out)
		}
		return o
	}
	w := &sseWriter{named: true}
	w.emit("response.created", obj{"response": response("in_progress", nil, false)})
	w.emit("response.in_progress", obj{"response": response("in_progress", nil, false)})
	var final []obj // the terminal response's items, under new ids
	oi, ci := 0, 0
	if text := r.Out.Reasoning; text != "" {
		itemID := "msg_" + g.token(hexDigits, 16)
		part := func(t string) obj { return obj{"text": t, "type": "reasoning_text"} }
		w.emit("response.output_item.added", obj{"output_index": oi, "item": obj{"id": itemID, "summary": []any{}, "type": "reasoning",
			"content": nil, "encrypted_content": nil, "status": "in_progress"}})
		w.emit("response.reasoning_part.added", obj{"content_index": ci, "item_id": itemID, "output_index": oi, "part": part("")})
		for _, d := range pieces(text) {
			w.emit("response.reasoning_text.delta", obj{"content_index": ci, "delta": d, "item_id": itemID, "output_index": oi})
		}
		w.emit("response.reasoning_text.done", obj{"content_index": ci, "item_id": itemID, "output_index": oi, "text": text})
		w.emit("response.reasoning_part.done", obj{"content_index": ci, "item_id": itemID, "output_index": oi, "part": part(text)})
		w.emit("response.output_item.done", obj{"output_index": oi, "item": obj{"id": itemID, "summary": []any{}, "type": "reasoning",
			"content": []any{part(text)}, "encrypted_content": nil, "status": "completed"}})
		final = append(final, obj{"id": "rs_" + g.token(hexDigits, 16), "summary": []any{}, "type": "reasoning",
			"content": []any{part(text)}, "encrypted_content": nil, "status": nil})
		oi, ci = oi+1, ci+1
	}
	if text := r.Out.Text; text != "" {
		itemID := "msg_" + g.token(hexDigits, 16)
		item := func(status string, content []any) obj {
			return obj{"id": itemID, "type": "message", "role": "assistant", "content": content, "status": status}
		}
		w.emit("response.output_item.added", obj{"output_index": oi, "item": item("in_progress", []any{})})
		w.emit("response.content_part.added", obj{"output_index": oi, "item_id": itemID, "content_index": ci,
			"part": obj{"type": "output_text", "text": "", "annotations": []any{}, "logprobs": []any{}}})
		for _, d := range pieces(text) {
			w.emit("response.output_text.delta", obj{"content_index": ci, "output_index": oi, "item_id": itemID, "delta": d, "logprobs": []any{}})
		}
		w.emit("response.output_text.done", obj{"output_index": oi, "content_index": ci, "text": text, "logprobs": []any{}, "item_id": itemID})
		part := obj{"type": "output_text", "text": text, "annotations": []any{}}
		w.emit("response.content_part.done", obj{"item_id": itemID, "output_index": oi, "content_index": ci, "part": part})
		w.emit("response.output_item.done", obj{"output_index": oi, "item": item("completed", []any{part})})
		done := item("completed", []any{part})
		done["id"] = "msg_" + g.token(hexDigits, 16)
		final = append(final, done)
		oi++ // a part after this one would be at ci+1; calls have none
	}
	for _, c := range r.Out.Calls {
		itemID, callID := "fc_"+g.token(hexDigits, 16), "call_"+g.token(hexDigits, 16)
		w.emit("response.output_item.added", obj{"output_index": oi, "item": obj{"arguments": "", "call_id": callID, "name": c.Name,
			"type": "function_call", "id": itemID, "namespace": nil, "status": "in_progress"}})
		for _, d := range pieces(c.Arguments) {
			w.emit("response.function_call_arguments.delta", obj{"delta": d, "item_id": itemID, "output_index": oi})
		}
		w.emit("response.function_call_arguments.done", obj{"arguments": c.Arguments, "item_id": itemID, "name": c.Name, "output_index": oi})
		w.emit("response.output_item.done", obj{"output_index": oi, "item": obj{"arguments": c.Arguments, "call_id": callID, "name": c.Name,
			"type": "function_call", "id": nil, "namespace": nil, "status": "completed", "item_id": itemID, "output_index": oi, "sequence_number": -1}})
		fresh := g.token(hexDigits, 16)
		final = append(final, obj{"arguments": c.Arguments, "call_id": "call_" + fresh, "name": c.Name, "type": "function_call",
			"id": "fc_" + fresh, "namespace": nil, "status": nil})
		oi++
	}
	w.emit("response.completed", obj{"response": response("completed", final, true)})
	return rendered{SSE: w.b.Bytes(), ID: id, Output: raws(final)}
}

// renderLlamaCpp: named events with no sequence_number, output_index or
// content_index; a response.created of {id, object, status}; function calls
// with no item id and call_id "fc_"+id, their arguments in deltas with no
// arguments.done; every item's done events after all the deltas; a
// terminal response of {created_at, id, model, object, output, status,
// usage}, status completed, repeating the done items.
func renderLlamaCpp(r *rendering) rendered {
	g := r.ids
	id := "resp_" + g.token(mixedAlnum, 32)
	w := &sseWriter{named: true, seq: -1}
	head := obj{"id": id, "object": "response", "status": "in_progress"}
	w.emit("response.created", obj{"response": head})
	w.emit("response.in_progress", obj{"response": head})
	var done []func() obj // each item's closing events, in order; each returns the done item
	if text := r.Out.Reasoning; text != "" {
		itemID := "rs_" + g.token(mixedAlnum, 32)
		w.emit("response.output_item.added", obj{"item": obj{"content": []any{}, "encrypted_content": "", "id": itemID,
			"status": "in_progress", "summary": []any{}, "type": "reasoning"}})
		for _, d := range pieces(text) {
			w.emit("response.reasoning_text.delta", obj{"delta": d, "item_id": itemID})
		}
		done = append(done, func() obj {
			it := obj{"content": []any{obj{"text": text, "type": "reasoning_text"}}, "encrypted_content": "", "id": itemID,
				"summary": []any{}, "type": "reasoning"}
			w.emit("response.output_item.done", obj{"item": it})
			return it
		})
	}
	if text := r.Out.Text; text != "" {
		itemID := "msg_" + g.token(mixedAlnum, 32)
		w.emit("response.output_item.added", obj{"item": obj{"content": []any{}, "id": itemID, "role": "assistant", "status": "in_progress", "type": "message"}})
		w.emit("response.content_part.added", obj{"item_id": itemID, "part": obj{"text": "", "type": "output_text"}})
		for _, d := range pieces(text) {
			w.emit("response.output_text.delta", obj{"delta": d, "item_id": itemID})
		}
		done = append(done, func() obj {
			part := obj{"annotations": []any{}, "logprobs": []any{}, "text": text, "type": "output_text"}
			w.emit("response.output_text.done", obj{"item_id": itemID, "text": text})
			w.emit("response.content_part.done", obj{"item_id": itemID, "part": part})
			it := obj{"content": []any{part}, "id": itemID, "role": "assistant", "status": "completed", "type": "message"}
			w.emit("response.output_item.done", obj{"item": it})
			return it
		})
	}
	for _, c := range r.Out.Calls {
		callID := "fc_" + g.token(mixedAlnum, 32)
		w.emit("response.output_item.added", obj{"item": obj{"arguments": "", "call_id": callID, "name": c.Name, "status": "in_progress", "type": "function_call"}})
		for _, d := range pieces(c.Arguments) {
			w.emit("response.function_call_arguments.delta", obj{"delta": d, "item_id": callID})
		}
		done = append(done, func() obj {
			it := obj{"arguments": c.Arguments, "call_id": callID, "name": c.Name, "status": "completed", "type": "function_call"}
			w.emit("response.output_item.done", obj{"item": it})
			return it
		})
	}
	var output []obj
	for _, close := range done {
		output = append(output, close())
	}
	u := usage(r.Out)
	w.emit("response.completed", obj{"response": obj{"created_at": createdAt, "id": id, "model": r.Model, "object": "response",
		"output": anys(output), "status": "completed",
		"usage": obj{"input_tokens": u["input_tokens"], "output_tokens": u["output_tokens"], "total_tokens": u["total_tokens"]}}})
	return rendered{SSE: w.b.Bytes(), ID: id, Output: raws(output)}
}

// renderGateway: one data: line holding the complete Response object, with
// no type, then data: [DONE]. previous_response_id is echoed.
func renderGateway(r *rendering) rendered {
	g := r.ids
	id := "resp_" + g.uuid7ish()
	var output []obj
	if text := r.Out.Reasoning; text != "" {
		output = append(output, obj{"content": []any{obj{"text": text, "type": "reasoning_text"}}, "encrypted_content": nil,
			"id": "rs_" + g.uuid7ish(), "status": nil, "summary": []any{}, "type": "reasoning"})
	}
	if text := r.Out.Text; text != "" {
		output = append(output, obj{"content": []any{obj{"annotations": []any{}, "text": text, "type": "output_text"}},
			"id": "msg_" + g.uuid7ish(), "role": "assistant", "status": "completed", "type": "message"})
	}
	for _, c := range r.Out.Calls {
		output = append(output, obj{"arguments": c.Arguments, "call_id": "call_" + g.token(hexDigits, 24), "id": "fc_" + g.uuid7ish(),
			"name": c.Name, "status": "completed", "type": "function_call"})
	}
	w := &sseWriter{seq: -1}
	w.data(obj{"id": id, "object": "response", "created_at": createdAt, "model": r.Model, "status": "completed",
		"output": anys(output), "usage": usage(r.Out), "incomplete_details": nil, "error": nil,
		"previous_response_id": nullable(r.Previous), "conversation_id": nil, "instructions": nil}, "")
	w.data("[DONE]", "")
	return rendered{SSE: w.b.Bytes(), ID: id, Output: raws(output)}
}
