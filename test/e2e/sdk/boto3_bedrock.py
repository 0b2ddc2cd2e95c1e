"""boto3's bedrock-agent-runtime rerank and bedrock-runtime invoke_model, unchanged apart from endpoint_url and the key
as the access key id: prints what each answered (or the error code botocore raised) as one JSON object."""
import json
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

url, key, query, *documents = sys.argv[1:]
session = boto3.session.Session(aws_access_key_id=key, aws_secret_access_key="not-checked", region_name="us-west-2")
config = Config(retries={"max_attempts": 1})
agent = session.client("bedrock-agent-runtime", endpoint_url=url, config=config)
runtime = session.client("bedrock-runtime", endpoint_url=url, config=config)
arn = "arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0"


def rerank(**extra):
    return agent.rerank(
        queries=[{"type": "TEXT", "textQuery": {"text": query}}],
        sources=[{"type": "INLINE", "inlineDocumentSource": {"type": "TEXT", "textDocument": {"text": d}}} for d in documents],
        rerankingConfiguration={
            "type": "BEDROCK_RERANKING_MODEL",
            "bedrockRerankingConfiguration": {"numberOfResults": 2, "modelConfiguration": {"modelArn": arn}},
        },
        **extra,
    )


out = {}
reply = rerank()
out["rerank"] = [[r["index"], r["relevanceScore"], r["document"]["textDocument"]["text"]] for r in reply["results"]]
try:
    # botocore checks shapes itself; a page token is what only the service can refuse (it never issues one).
    rerank(nextToken="page-2")
except ClientError as error:
    out["rerank_error"] = [error.response["Error"]["Code"], error.response["Error"]["Message"]]

body = json.dumps({"query": query, "documents": documents, "top_n": 2, "api_version": 2})
reply = runtime.invoke_model(modelId="cohere.rerank-v3-5:0", body=body, contentType="application/json", accept="application/json")
out["invoke"] = json.loads(reply["body"].read())["results"]
# Without contentType boto3 sends no Content-Type at all; Bedrock reads the body as JSON regardless.
reply = runtime.invoke_model(modelId="cohere.rerank-v3-5:0", body=body)
out["invoke_untyped"] = json.loads(reply["body"].read())["results"]
try:
    runtime.invoke_model(modelId="cohere.rerank-v3-5:0", body=json.dumps({"query": query}), contentType="application/json")
except ClientError as error:
    out["invoke_error"] = [error.response["Error"]["Code"], error.response["Error"]["Message"]]
print(json.dumps(out))
