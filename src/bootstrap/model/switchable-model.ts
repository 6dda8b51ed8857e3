/**
 * `/model NAME`: the conversation's model, switchable between turns. Each switch makes a new
 * client for the same provider and endpoint; a request in flight keeps the client it started with.
 */
import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";

export class SwitchableModel implements ModelClient {
  readonly #make: (name: string) => ModelClient;
  #name: string;
  #client: ModelClient;

  constructor(name: string, make: (name: string) => ModelClient) {
    this.#make = make;
    this.#name = name;
    this.#client = make(name);
  }

  get current(): string {
    return this.#name;
  }

  switchTo(name: string): void {
    this.#client = this.#make(name);
    this.#name = name;
  }

  complete(request: ModelRequest): Promise<ModelReply> {
    return this.#client.complete(request);
  }
}
