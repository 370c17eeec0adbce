// Command runnel is a terminal chat client for the OpenAI Responses API.
package main

func main() {}
